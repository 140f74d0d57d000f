namespace Supermarket.ServiceDefaults.Observability;

/// <summary>A rate a live page shows now (an exporter is seconds late); locked, as it is added to per group.</summary>
public sealed class RecentRate(TimeProvider clock, int seconds = 5)
{
    private readonly long[] _counts = new long[seconds + 1];
    private readonly long[] _secondOf = new long[seconds + 1];
    private readonly Lock _lock = new();
    private DateTimeOffset? _last;

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

    /// <summary>Over the last whole seconds: the one under way is not over yet.</summary>
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
