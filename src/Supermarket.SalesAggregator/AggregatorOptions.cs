using System.ComponentModel.DataAnnotations;

namespace Supermarket.SalesAggregator;

public sealed class AggregatorOptions : IValidatableObject
{
    public const string Section = "Aggregator";

    /// <summary>The most this adds from a purchase's commit to its count; a question ends the wait.</summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:00:10")]
    public TimeSpan LedgerPollInterval { get; set; } = TimeSpan.FromMilliseconds(50);

    /// <summary>Each read finding nothing new doubles the wait up to this: a quiet system reads once a second.</summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:00:10")]
    public TimeSpan IdleLedgerPollInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Until /health/ready names a missing entry; the feed never passes it: it may still commit.</summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "01:00:00")]
    public TimeSpan MissingEntryPatience { get; set; } = TimeSpan.FromSeconds(10);

    [Range(1, 100_000)]
    public int LedgerPageSize { get; set; } = 1_000;

    /// <summary>Of <c>SalesShards:Count</c>; a shard's replicas run with the same number.</summary>
    [Range(1, 64)]
    public int Shard { get; set; } = 1;

    [Required]
    public string CheckpointDirectory { get; set; } = "checkpoints";

    [Range(1, 3_660)]
    public int DaysKept { get; set; } = 400;

    /// <summary>A restart reads the checkpoint, then at most this much of the ledger.</summary>
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
