using System.ComponentModel.DataAnnotations;

namespace Supermarket.SalesAggregator;

/// <summary>How the aggregator follows the sales ledger and checkpoints its matrix. Section <c>Aggregator</c>.</summary>
public sealed class AggregatorOptions : IValidatableObject
{
    public const string Section = "Aggregator";

    /// <summary>How long the aggregator waits between reads of the ledger once it has caught up: the most this adds
    /// to the time from a purchase's commit to its count. A question ends the wait (it is answered after a read begun
    /// once it arrived).</summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:00:10")]
    public TimeSpan LedgerPollInterval { get; set; } = TimeSpan.FromMilliseconds(50);

    /// <summary>The longest wait between reads while the ledger stays still: each read that finds nothing new doubles
    /// the wait from <see cref="LedgerPollInterval"/> up to this, and the first that finds something sets it back. A
    /// quiet system then reads once a second, not twenty times; a question still ends the wait.</summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:00:10")]
    public TimeSpan IdleLedgerPollInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>How long a ledger entry may stay unreadable while a later one is readable before /health/ready says
    /// so. The feed never moves past it, however long it waits: its writer's transaction may still commit.</summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "01:00:00")]
    public TimeSpan MissingEntryPatience { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Ledger entries read at once (an entry is one writer transaction, about 100 purchases).</summary>
    [Range(1, 100_000)]
    public int LedgerPageSize { get; set; } = 1_000;

    /// <summary>Which of the <c>SalesShards:Count</c> shards this aggregator counts and answers for (1 when there is one):
    /// the items it owns follow from it (SalesShardOptions). Its replicas run with the same number.</summary>
    [Range(1, 64)]
    public int Shard { get; set; } = 1;

    /// <summary>Where the matrix's checkpoint is kept; a relative path is under the working directory.</summary>
    [Required]
    public string CheckpointDirectory { get; set; } = "checkpoints";

    /// <summary>How many days with sales the aggregator keeps for questions over a range of days (the purchases' own
    /// dates): a new day pushes out the oldest, and a range may span at most this many days.</summary>
    [Range(1, 3_660)]
    public int DaysKept { get; set; } = 400;

    /// <summary>How often the matrix is saved: a restart reads the checkpoint, then at most this much of the ledger.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "1.00:00:00")]
    public TimeSpan CheckpointInterval { get; set; } = TimeSpan.FromMinutes(1);

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (IdleLedgerPollInterval < LedgerPollInterval)
        {
            yield return new ValidationResult($"{nameof(IdleLedgerPollInterval)} must be at least {nameof(LedgerPollInterval)}",
                [nameof(IdleLedgerPollInterval)]);
        }
    }
}
