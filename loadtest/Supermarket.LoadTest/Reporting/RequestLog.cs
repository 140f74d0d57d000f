using System.Diagnostics;
using Supermarket.LoadTest.Live;

namespace Supermarket.LoadTest.Reporting;

/// <summary>Every request of the run: when it started, how long it took and what it got. Preallocated, lock-free;
/// requests beyond the capacity (retries, when the run retries) are counted but not kept. Each is also added to the
/// <see cref="Window"/> the live view reads.</summary>
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

    public RequestWindow Window { get; } = new();

    /// <summary>Records a finished request; status 0 means no HTTP answer at all.</summary>
    public void Add(int store, long startTimestamp, long endTimestamp, int status)
    {
        if (status != 201)
        {
            Interlocked.Increment(ref _failures);
        }

        Window.Add(ToMs(endTimestamp - startTimestamp), status);
        var index = Interlocked.Increment(ref _count) - 1;
        if (index >= capacity)
        {
            return;
        }

        _startTicks[index] = startTimestamp - StartedAt;
        _elapsedTicks[index] = endTimestamp - startTimestamp;
        _statuses[index] = (short)status;
        _stores[index] = store;
    }

    public IEnumerable<RequestRecord> Records()
    {
        for (var i = 0; i < Math.Min(Count, capacity); i++)
        {
            yield return new RequestRecord(_stores[i], ToMs(_startTicks[i]), ToMs(_elapsedTicks[i]), _statuses[i]);
        }
    }

    /// <summary>The longest time between two consecutive 201s: how long the stores saw the system down.</summary>
    public double LongestStretchWithout201Seconds()
    {
        var answered = Records().Where(r => r.Succeeded).Select(r => r.StartMs + r.LatencyMs).Order().ToArray();
        var longest = 0.0;
        for (var i = 1; i < answered.Length; i++)
        {
            longest = Math.Max(longest, answered[i] - answered[i - 1]);
        }

        return longest / 1000;
    }

    public static double ToMs(long ticks) => ticks * 1000.0 / Stopwatch.Frequency;
}

public readonly record struct RequestRecord(int Store, double StartMs, double LatencyMs, int Status)
{
    public bool Succeeded => Status == 201;
}
