namespace Supermarket.ServiceDefaults.Observability;

/// <summary>How many of something a second, over the last few whole seconds, and when the last came: what a live page
/// shows of a service now, where a metric's exporter would show it seconds later. Added to from any thread (a
/// lock: it is added to a group or a ledger entry at a time, not per purchase).</summary>
public sealed class RecentRate(TimeProvider clock, int seconds = 5)
{
    private readonly long[] _counts = new long[seconds + 1];
    private readonly long[] _secondOf = new long[seconds + 1];
    private readonly Lock _lock = new();
    private DateTimeOffset? _last;

    /// <summary>When the last were added; null before any.</summary>
    public DateTimeOffset? Last
    {
        get
        {
            lock (_lock)
            {
                return _last;
            }
        }
    }

    public void Add(long count)
    {
        var now = clock.GetUtcNow();
        var second = now.ToUnixTimeSeconds();
        var slot = (int)(second % _counts.Length);
        lock (_lock)
        {
            if (_secondOf[slot] != second)
            {
                (_secondOf[slot], _counts[slot]) = (second, 0);
            }

            _counts[slot] += count;
            _last = now;
        }
    }

    /// <summary>The mean a second over the last whole seconds (the one under way left out: it is not over yet).</summary>
    public double PerSecond()
    {
        var current = clock.GetUtcNow().ToUnixTimeSeconds();
        long sum = 0;
        lock (_lock)
        {
            for (var slot = 0; slot < _counts.Length; slot++)
            {
                if (_secondOf[slot] < current && _secondOf[slot] >= current - seconds)
                {
                    sum += _counts[slot];
                }
            }
        }

        return sum / (double)seconds;
    }
}
