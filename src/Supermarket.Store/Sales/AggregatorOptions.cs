using System.ComponentModel.DataAnnotations;

namespace Supermarket.Store.Sales;

/// <summary>How fast the aggregator takes purchases off its queue. Section <c>Aggregator</c>.</summary>
public sealed class AggregatorOptions
{
    public const string Section = "Aggregator";

    [Range(1, 10_000)]
    public int PrefetchCount { get; set; } = 512;

    /// <summary>Purchases counted at once; the matrix is lock-free, so this is about CPU, not contention.</summary>
    [Range(1, 256)]
    public int ConcurrentMessageLimit { get; set; } = 8;
}
