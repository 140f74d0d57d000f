namespace Supermarket.Api.Purchases;

/// <summary>
/// One confirmed publish: how long it may wait for the broker, whether the message may have left, and whether the
/// broker refused it. Travels with the message as a payload so that <see cref="RefusedPublishObserver"/> can end it
/// the moment RabbitMQ says no.
/// </summary>
public sealed class PublishAttempt : IDisposable
{
    private readonly CancellationTokenSource _wait;

    public PublishAttempt(TimeSpan timeout)
    {
        _wait = new CancellationTokenSource(timeout);
    }

    /// <summary>Cancelled when the time given passes (until the last of its requests stops waiting) or the broker
    /// refuses.</summary>
    public CancellationToken Token => _wait.Token;

    /// <summary>RabbitMQ nacked the message (a queue it routes to is at its length limit: reject-publish) or returned it
    /// (no queue took it): nothing was stored.</summary>
    public bool Refused { get; private set; }

    public void Refuse()
    {
        Refused = true;
        _wait.Cancel();
    }

    private const int Waiting = 0, Sending = 1, GivenUp = 2;
    private int _state = Waiting;

    /// <summary>MassTransit holds a channel to publish on (it makes the send context only then: its
    /// <c>SendTransport</c>): from here the message may reach the broker. False once the attempt was given up, so a
    /// publish that outlived its answer never leaves.</summary>
    public bool TryStartSending() =>
        Interlocked.CompareExchange(ref _state, Sending, Waiting) != GivenUp;

    /// <summary>Gives the attempt up, unless the message may already have left: then its outcome is not known.</summary>
    public bool TryGiveUp() =>
        Interlocked.CompareExchange(ref _state, GivenUp, Waiting) != Sending;

    public void Dispose() => _wait.Dispose();
}
