using System.ComponentModel.DataAnnotations;

namespace Supermarket.Store.Sales;

/// <summary>How the aggregator takes purchases off its queue. Section <c>Aggregator</c>.</summary>
public sealed class AggregatorOptions
{
    public const string Section = "Aggregator";

    [Range(1, 10_000)]
    public int PrefetchCount { get; set; } = 512;

    /// <summary>Purchases counted at once; the matrix is lock-free, so this is about CPU, not contention.</summary>
    [Range(1, 256)]
    public int ConcurrentMessageLimit { get; set; } = 8;

    /// <summary>How many of the latest purchases the aggregator remembers to skip a second delivery of one
    /// (about 45 bytes each). A duplicate older than that would count twice.</summary>
    [Range(1_000, 100_000_000)]
    public int RememberedPurchases { get; set; } = 1_000_000;
}
