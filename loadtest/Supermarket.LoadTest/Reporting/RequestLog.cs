using System.Diagnostics;

namespace Supermarket.LoadTest.Reporting;

/// <summary>Every request of the run: when it started, how long it took and what it got. Preallocated, lock-free.</summary>
public sealed class RequestLog(long capacity)
{
    private readonly long[] _startTicks = new long[capacity];
    private readonly long[] _elapsedTicks = new long[capacity];
    private readonly short[] _statuses = new short[capacity];
    private readonly int[] _stores = new int[capacity];
    private long _count;
    private long _failures;

    public long StartedAt { get; } = Stopwatch.GetTimestamp();

    public long Count => Interlocked.Read(ref _count);

    public long Failures => Interlocked.Read(ref _failures);

    /// <summary>Records a finished request; status 0 means no HTTP answer at all.</summary>
    public void Add(int store, long startTimestamp, long endTimestamp, int status)
    {
        var index = Interlocked.Increment(ref _count) - 1;
        _startTicks[index] = startTimestamp - StartedAt;
        _elapsedTicks[index] = endTimestamp - startTimestamp;
        _statuses[index] = (short)status;
        _stores[index] = store;
        if (status != 201)
        {
            Interlocked.Increment(ref _failures);
        }
    }

    public IEnumerable<RequestRecord> Records()
    {
        for (var i = 0; i < Count; i++)
        {
            yield return new RequestRecord(_stores[i], ToMs(_startTicks[i]), ToMs(_elapsedTicks[i]), _statuses[i]);
        }
    }

    public static double ToMs(long ticks) => ticks * 1000.0 / Stopwatch.Frequency;
}

public readonly record struct RequestRecord(int Store, double StartMs, double LatencyMs, int Status)
{
    public bool Succeeded => Status == 201;
}
