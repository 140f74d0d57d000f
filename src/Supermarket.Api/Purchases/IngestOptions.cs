using System.ComponentModel.DataAnnotations;

namespace Supermarket.Api.Purchases;

/// <summary>How the API takes purchases in. Section <c>Ingest</c>.</summary>
public sealed class IngestOptions
{
    public const string Section = "Ingest";

    [Range(256, 16 * 1024 * 1024)]
    public int MaxBodyBytes { get; set; } = 64 * 1024;

    /// <summary>How long a POST may take: its Idempotency-Key claim, its wait for a group and the broker's confirm
    /// share it (<see cref="RequestDeadline"/>). Past it the answer is 503 with Retry-After.</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:01:00")]
    public TimeSpan RequestDeadline { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>The least time left of a request's deadline with which its purchase is still published: a tenth of it
    /// (a confirm takes milliseconds here). With less, it is not sent, and its 503 can promise nothing was recorded.</summary>
    public TimeSpan TimeToConfirm => RequestDeadline / 10;

    /// <summary>How long a proxy in front must wait for an answer, so that the API always answers first: twice the
    /// deadline (a request whose purchase a group took answers with its group, by the latest deadline in it, which began
    /// at most one deadline later: PurchaseBatcher) plus time for a request to reach the endpoint on a busy box. The
    /// AppHost (Services/Nginx.cs) and docker/nginx-settings.sh read it from <c>/about</c>.</summary>
    public int ProxyReadTimeoutSeconds => (2 * (int)Math.Ceiling(RequestDeadline.TotalSeconds)) + 5;

    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan RetryAfter { get; set; } = TimeSpan.FromSeconds(2);

    [Range(1, 1000)]
    public int MaxBatchSize { get; set; } = 100;

    /// <summary>How long a partial group may wait for more purchases while another group awaits its confirm (with none
    /// in flight it goes at once); zero sends what has arrived at once.</summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:00:01")]
    public TimeSpan BatchLinger { get; set; } = TimeSpan.FromMilliseconds(1);

    [Range(1, 64)]
    public int MaxBatchesInFlight { get; set; } = 4;

    /// <summary>Purchases that may wait for a group at once; beyond it a POST gets 503 (overload, not a queue).</summary>
    [Range(1, 1_000_000)]
    public int MaxPendingPurchases { get; set; } = 10_000;
}
