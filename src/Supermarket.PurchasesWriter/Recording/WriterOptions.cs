using System.ComponentModel.DataAnnotations;

namespace Supermarket.PurchasesWriter.Recording;

public sealed class WriterOptions
{
    public const string Section = "Writer";

    [Range(1, 100)]
    public int GroupsPerTransaction { get; set; } = 4;

    [Range(typeof(TimeSpan), "00:00:00.001", "00:00:10")]
    public TimeSpan BatchTimeLimit { get; set; } = TimeSpan.FromMilliseconds(50);

    [Range(1, 64)]
    public int BatchConcurrency { get; set; } = 4;

    /// <summary>While the database is away, how soon after its return the writer notices.</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:10:00")]
    public TimeSpan RetryMaxInterval { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>A database may say healthy before it is reachable, when a deployment starts the migration.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    public TimeSpan DatabaseWait { get; set; } = TimeSpan.FromMinutes(2);

    /// <summary>Past it a starting writer stops, saying so, rather than migrate without the schema lock.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "1.00:00:00")]
    public TimeSpan SchemaLockWait { get; set; } = TimeSpan.FromMinutes(10);

    /// <summary>Load is shed at the door (503) instead of the lag growing without bound. RabbitMQ refuses to change it
    /// on an existing queue (docs/api.md, "Limits, set on purpose").</summary>
    [Range(1, 100_000)]
    public int BacklogLimitMegabytes { get; set; } = 64;

    /// <summary>Enough to fill every concurrent batch, and the next ones while those commit.</summary>
    public int PrefetchCount => GroupsPerTransaction * BatchConcurrency * 2;
}
