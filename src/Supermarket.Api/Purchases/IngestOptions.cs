using System.ComponentModel.DataAnnotations;

namespace Supermarket.Api.Purchases;

/// <summary>How the API takes purchases in. Section <c>Ingest</c>.</summary>
public sealed class IngestOptions
{
    public const string Section = "Ingest";

    [Range(256, 16 * 1024 * 1024)]
    public int MaxBodyBytes { get; set; } = 64 * 1024;

    /// <summary>How long a POST waits for the broker's confirm before it answers 503.</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:01:00")]
    public TimeSpan PublishTimeout { get; set; } = TimeSpan.FromSeconds(5);

    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan RetryAfter { get; set; } = TimeSpan.FromSeconds(2);
}
