using System.Diagnostics;

namespace Supermarket.Api.Purchases;

/// <summary>A POST's one deadline (Ingest:RequestDeadline), shared by claim, group and confirm, so their waits cannot
/// add up past the proxy's timeout (docs/architecture.md, "Guarantees").</summary>
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

    public static TimeSpan Until(long timestamp) =>
        TimeSpan.FromSeconds(Math.Max(0, timestamp - Stopwatch.GetTimestamp()) / (double)Stopwatch.Frequency);

    public void Dispose() => _ended.Dispose();
}
