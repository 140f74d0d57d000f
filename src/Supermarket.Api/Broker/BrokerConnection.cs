using System.Diagnostics;
using MassTransit;

namespace Supermarket.Api.Broker;

/// <summary>Whether a publish or a question is worth trying: while the broker is known gone, 503 at once rather than
/// every request waiting out its deadline (docs/reliability.md, "How the design keeps the promise").</summary>
public sealed class BrokerConnection(IBusControl bus)
{
    private static readonly long Second = Stopwatch.Frequency;
    // The health check walks every endpoint, and thousands of requests a second ask: re-read it at most this often.
    private static readonly long RecheckHealthEvery = Second / 4;

    private long _healthCheckedAt = Stopwatch.GetTimestamp() - RecheckHealthEvery;
    private volatile bool _healthy;
    private volatile bool _checked;
    private long _lastConfirmed;
    private long _lastProbe;

    public bool WorthTrying()
    {
        var now = Stopwatch.GetTimestamp();
        return IsHealthy(now)
            || now - Volatile.Read(ref _lastConfirmed) < Second
            || TryTake(ref _lastProbe, now, Second);
    }

    /// <summary>No probe here: a question gains nothing by going first, and would only wait out its timeout.</summary>
    public bool CanAsk() => IsHealthy(Stopwatch.GetTimestamp());

    public void Confirmed() => Volatile.Write(ref _lastConfirmed, Stopwatch.GetTimestamp());

    private bool IsHealthy(long now)
    {
        // Until a first reading is in, every caller reads for itself: none acts on a guess.
        if (TryTake(ref _healthCheckedAt, now, RecheckHealthEvery) || !_checked)
        {
            // A receive endpoint that lost its connection reports Degraded while it retries.
            _healthy = bus.CheckHealth().Status == BusHealthStatus.Healthy;
            _checked = true;
        }

        return _healthy;
    }

    /// <summary>True for the one caller that moves <paramref name="last"/> on; the others do not wait.</summary>
    private static bool TryTake(ref long last, long now, long every)
    {
        var seen = Volatile.Read(ref last);
        return now - seen >= every && Interlocked.CompareExchange(ref last, now, seen) == seen;
    }
}
