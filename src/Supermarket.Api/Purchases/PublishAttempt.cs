namespace Supermarket.Api.Purchases;

/// <summary>
/// One confirmed publish: how long it may wait for the broker, and whether the broker refused it. Travels with the
/// message as a payload so that <see cref="RefusedPublishObserver"/> can end it the moment RabbitMQ says no.
/// </summary>
public sealed class PublishAttempt : IDisposable
{
    private readonly CancellationTokenSource _wait;

    public PublishAttempt(TimeSpan timeout, CancellationToken aborted)
    {
        _wait = CancellationTokenSource.CreateLinkedTokenSource(aborted);
        _wait.CancelAfter(timeout);
    }

    /// <summary>Cancelled when the time given passes (until the last of its requests stops waiting), the caller gives up, or
    /// the broker refuses.</summary>
    public CancellationToken Token => _wait.Token;

    /// <summary>RabbitMQ nacked the message: a queue it routes to is at its length limit (reject-publish).</summary>
    public bool Refused { get; private set; }

    public void Refuse()
    {
        Refused = true;
        _wait.Cancel();
    }

    public void Dispose() => _wait.Dispose();
}
