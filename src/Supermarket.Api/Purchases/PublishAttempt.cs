namespace Supermarket.Api.Purchases;

/// <summary>One confirmed publish, travelling with the message as a payload so that
/// <see cref="RefusedPublishObserver"/> can end it the moment RabbitMQ says no.</summary>
public sealed class PublishAttempt : IDisposable
{
    private readonly CancellationTokenSource _wait;

    public PublishAttempt(TimeSpan timeout)
    {
        _wait = new CancellationTokenSource(timeout);
    }

    public CancellationToken Token => _wait.Token;

    /// <summary>Nacked (a queue at its length limit) or returned (no queue took it): nothing was stored.</summary>
    public bool Refused { get; private set; }

    public void Refuse()
    {
        Refused = true;
        _wait.Cancel();
    }

    private const int Waiting = 0, Sending = 1, GivenUp = 2;
    private int _state = Waiting;

    /// <summary>MassTransit holds a channel (it makes the send context only then): from here the message may leave.
    /// False once given up, so a publish that outlived its answer never leaves.</summary>
    public bool TryStartSending() =>
        Interlocked.CompareExchange(ref _state, Sending, Waiting) != GivenUp;

    /// <summary>Gives the attempt up, unless the message may already have left: then its outcome is not known.</summary>
    public bool TryGiveUp() =>
        Interlocked.CompareExchange(ref _state, GivenUp, Waiting) != Sending;

    public void Dispose() => _wait.Dispose();
}
