using System.ComponentModel.DataAnnotations;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>How the writer batches purchases into transactions. Section <c>Writer</c>.</summary>
public sealed class WriterOptions
{
    public const string Section = "Writer";

    /// <summary>The API's groups (one message each, up to Ingest:MaxBatchSize purchases) stored per transaction.</summary>
    [Range(1, 100)]
    public int GroupsPerTransaction { get; set; } = 4;

    /// <summary>How long a partial batch waits for more purchases (or groups) before it is written anyway.</summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:00:10")]
    public TimeSpan BatchTimeLimit { get; set; } = TimeSpan.FromMilliseconds(50);

    /// <summary>Batches written at once; each holds one connection, so it must not exceed Database:MaxConnections.</summary>
    [Range(1, 64)]
    public int BatchConcurrency { get; set; } = 4;

    /// <summary>The longest wait between retries (they start at 100 ms and grow): while the database is away, how
    /// soon after its return the writer notices.</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:10:00")]
    public TimeSpan RetryMaxInterval { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>How long the migration step waits for the database to answer: a deployment starts it as soon as the
    /// database reports healthy, which is not yet always reachable over the network; past it the step fails.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    public TimeSpan DatabaseWait { get; set; } = TimeSpan.FromMinutes(2);

    /// <summary>How long a starting writer waits for the schema lock while another writer migrates (a migration over a
    /// long history takes minutes: an index built, the old sales dated). Past it the writer stops, saying so, rather
    /// than migrate without it.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "1.00:00:00")]
    public TimeSpan SchemaLockWait { get; set; } = TimeSpan.FromMinutes(10);

    /// <summary>The most that may wait in the writer's queue for storage, in megabytes of broker messages (about
    /// 4,000 purchases a megabyte). When it is full RabbitMQ refuses the publish and the API answers 503 with
    /// Retry-After: load is shed at the door instead of the lag growing without bound. Part of the queue's declaration,
    /// which only the writer makes (<see cref="PurchaseBatchRecordedConsumerDefinition"/>); RabbitMQ refuses to change
    /// it on an existing queue (docs/api.md, "Limits, set on purpose").</summary>
    [Range(1, 100_000)]
    public int BacklogLimitMegabytes { get; set; } = 64;

    /// <summary>Messages the broker sends ahead: enough to fill every concurrent batch, and the next ones while those
    /// commit.</summary>
    public int PrefetchCount => GroupsPerTransaction * BatchConcurrency * 2;
}
