using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Sharding;

/// <summary>Refused at start, with the memory needed (the matrix and a checkpoint's copy): else the matrix's
/// constructor would throw at every start.</summary>
public sealed class ShardFitsInMemory(CatalogOptions catalog, SalesShardOptions shards, long availableBytes) : IValidateOptions<AggregatorOptions>
{
    public ShardFitsInMemory(IOptions<CatalogOptions> catalog, IOptions<SalesShardOptions> shards)
        : this(catalog.Value, shards.Value, GC.GetGCMemoryInfo().TotalAvailableMemoryBytes)
    {
    }

    public ValidateOptionsResult Validate(string? name, AggregatorOptions aggregator)
    {
        if (aggregator.Shard > shards.Count || catalog.MaxItemId < shards.Count)
        {
            return ValidateOptionsResult.Fail(
                $"Aggregator:Shard {aggregator.Shard} of SalesShards:Count {shards.Count} over Catalog:MaxItemId {catalog.MaxItemId:N0}: a shard is one of 1 to the count, and each owns at least one item.");
        }

        var shard = SalesShard.Of(aggregator, shards, catalog);
        var cells = SalesMatrix.CellsFor(shard.Items.Count, shard.MaxStores);
        var needed = 2 * shard.MatrixBytes;
        if (cells > Array.MaxLength || needed > availableBytes)
        {
            return ValidateOptionsResult.Fail(
                $"Items {shard.Items} (shard {shard.Number} of {shard.Count}, Catalog:MaxItemId {catalog.MaxItemId:N0}) × Catalog:MaxStoreId {catalog.MaxStoreId:N0}: "
                + $"the sales matrix and its checkpoint copy need {Gib(needed)} in {cells:N0} counters; this process may use {Gib(availableBytes)} "
                + $"and one array holds at most {Array.MaxLength:N0} counters. More shards (SalesShards:Count) make each smaller.");
        }

        return ValidateOptionsResult.Success;
    }

    private static string Gib(long bytes) => FormattableString.Invariant($"{bytes / (1024.0 * 1024 * 1024):F1} GiB");
}
