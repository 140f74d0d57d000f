using System.Diagnostics;
using MassTransit;

namespace Supermarket.Api.Broker;

/// <summary>
/// Decides whether a publish, or a question to a worker, is worth trying. While the broker is known to be gone, the API refuses at once with a 503
/// instead of letting every request wait out its deadline: stores are told to come back sooner and hold no
/// connection meanwhile. "Known to be gone" means MassTransit's health is not Healthy (the same check as /health/ready)
/// and no publish was confirmed in the last second. Receive endpoints reconnect more slowly than publishing does (16 s
/// against 6 s after a broker restart, measured), so one publish a second still goes through as a probe, and its
/// confirm reopens the way without waiting for the health.
/// </summary>
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

    /// <summary>True: publish (and wait for the confirm). False: answer 503 now.</summary>
    public bool WorthTrying()
    {
        var now = Stopwatch.GetTimestamp();
        return IsHealthy(now)
            || now - Volatile.Read(ref _lastConfirmed) < Second
            || TryTake(ref _lastProbe, now, Second);
    }

    /// <summary>True: ask the worker. False: the broker is known to be gone, or was never reached; answer 503 now.
    /// No probe here: a question gains nothing by going first, and one asked before the API ever reached the broker
    /// would only wait out its timeout.</summary>
    public bool CanAsk() => IsHealthy(Stopwatch.GetTimestamp());

    /// <summary>Called for every confirmed publish: the broker takes messages, whatever the health says.</summary>
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

    /// <summary>True for the one caller that moves <paramref name="last"/> to now, once <paramref name="every"/> has
    /// passed; the others go on without waiting.</summary>
    private static bool TryTake(ref long last, long now, long every)
    {
        var seen = Volatile.Read(ref last);
        return now - seen >= every && Interlocked.CompareExchange(ref last, now, seen) == seen;
    }
}
