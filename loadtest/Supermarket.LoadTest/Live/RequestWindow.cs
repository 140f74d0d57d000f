using HdrHistogram;

namespace Supermarket.LoadTest.Live;

/// <summary>
/// What the requests of the last interval got, for the live dashboard and the report's charts: their latencies in an
/// HdrHistogram <see cref="Recorder"/> (recorded from every sending task without a lock, read as one histogram per
/// interval) and running counts per status, whose differences are the interval's.
/// </summary>
public sealed class RequestWindow
{
    // Microseconds; the HTTP client gives up after 30 s, so a minute holds every answer.
    private const long LongestMicroseconds = 60_000_000;

    private readonly Recorder _latencies = HistogramFactory.With64BitBucketSize()
        .WithValuesFrom(1).WithValuesUpTo(LongestMicroseconds).WithPrecisionOf(3)
        .WithThreadSafeWrites().WithThreadSafeReads().Create();

    // Index status + 1: -1 is an arrival the open simulations dropped, 0 no answer at all.
    private readonly long[] _statuses = new long[601];

    public void Add(double latencyMs, int status)
    {
        _latencies.RecordValue(Math.Clamp((long)(latencyMs * 1000), 1, LongestMicroseconds));
        Interlocked.Increment(ref _statuses[Math.Clamp(status, -1, 599) + 1]);
    }

    /// <summary>The latencies since the previous call, and every status counted so far.</summary>
    public (IntervalLatencies Latencies, IReadOnlyDictionary<int, long> Statuses) Take()
    {
        var interval = _latencies.GetIntervalHistogram();
        var latencies = interval.TotalCount == 0
            ? new IntervalLatencies(0, 0, 0, 0)
            : new IntervalLatencies(interval.TotalCount,
                interval.GetValueAtPercentile(50) / 1000.0, interval.GetValueAtPercentile(95) / 1000.0, interval.GetValueAtPercentile(99) / 1000.0);
        var statuses = new Dictionary<int, long>();
        for (var i = 0; i < _statuses.Length; i++)
        {
            if (Interlocked.Read(ref _statuses[i]) is var count and > 0)
            {
                statuses[i - 1] = count;
            }
        }

        return (latencies, statuses);
    }
}

public readonly record struct IntervalLatencies(long Count, double P50Ms, double P95Ms, double P99Ms);
