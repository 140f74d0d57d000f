using System.Diagnostics;

namespace Supermarket.Api.Purchases;

/// <summary>
/// The one deadline of a POST (Ingest:RequestDeadline, from when its purchase is read and recording starts): the Idempotency-Key claim, the
/// wait for a group and the broker's confirm share it, so the answer comes within it, and before the proxy in front
/// gives up (scripts/ and docker/ set the proxy's read timeout from <see cref="IngestOptions.ProxyReadTimeoutSeconds"/>).
/// Waits that add up (a claim, then a group, then a confirm) can no longer outlast the proxy and leave a purchase
/// published for a till that was told 504 and retries.
/// </summary>
public sealed class RequestDeadline : IDisposable
{
    private readonly CancellationTokenSource _ended;

    public RequestDeadline(TimeSpan within, CancellationToken requestAborted)
    {
        RequestAborted = requestAborted;
        At = Stopwatch.GetTimestamp() + (long)(within.TotalSeconds * Stopwatch.Frequency);
        _ended = CancellationTokenSource.CreateLinkedTokenSource(requestAborted);
        _ended.CancelAfter(within);
    }

    /// <summary>When it passes, as a <see cref="Stopwatch"/> timestamp.</summary>
    public long At { get; }

    /// <summary>Cancelled when the deadline passes or the client goes away.</summary>
    public CancellationToken Ended => _ended.Token;

    public CancellationToken RequestAborted { get; }

    public TimeSpan Remaining => Until(At);

    /// <summary>The time left until a <see cref="Stopwatch"/> timestamp; zero once it has passed.</summary>
    public static TimeSpan Until(long timestamp) =>
        TimeSpan.FromSeconds(Math.Max(0, timestamp - Stopwatch.GetTimestamp()) / (double)Stopwatch.Frequency);

    public void Dispose() => _ended.Dispose();
}
