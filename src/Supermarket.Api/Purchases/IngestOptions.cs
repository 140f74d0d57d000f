using System.ComponentModel.DataAnnotations;

namespace Supermarket.Api.Purchases;

/// <summary>How the API takes purchases in. Section <c>Ingest</c>.</summary>
public sealed class IngestOptions
{
    public const string Section = "Ingest";

    [Range(256, 16 * 1024 * 1024)]
    public int MaxBodyBytes { get; set; } = 64 * 1024;

    /// <summary>Shared by a POST's key claim, group and confirm (<see cref="RequestDeadline"/>).</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:01:00")]
    public TimeSpan RequestDeadline { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>With less left, a purchase is not sent, so its 503 can promise nothing was recorded.</summary>
    public TimeSpan TimeToConfirm => RequestDeadline / 10;

    /// <summary>Twice the deadline (a grouped request answers by its group's latest deadline, begun at most one
    /// deadline later) plus 5 s, so the API answers before the proxy; read from <c>/about</c> by the AppHost
    /// (Services/Nginx.cs) and docker/nginx-settings.sh.</summary>
    public int ProxyReadTimeoutSeconds => (2 * (int)Math.Ceiling(RequestDeadline.TotalSeconds)) + 5;

    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan RetryAfter { get; set; } = TimeSpan.FromSeconds(2);

    [Range(1, 1000)]
    public int MaxBatchSize { get; set; } = 100;

    /// <summary>Only while another group awaits its confirm: with none in flight a group goes at once. Long enough
    /// that groups fill (the broker and the writer are paid by the message; docs/performance.md, "The purchase's cost").</summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:00:01")]
    public TimeSpan BatchLinger { get; set; } = TimeSpan.FromMilliseconds(5);

    [Range(1, 64)]
    public int MaxBatchesInFlight { get; set; } = 4;

    /// <summary>Beyond it a POST gets 503 at once: overload, not a queue.</summary>
    [Range(1, 1_000_000)]
    public int MaxPendingPurchases { get; set; } = 10_000;
}
