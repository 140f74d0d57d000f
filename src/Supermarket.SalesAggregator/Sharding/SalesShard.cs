using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.SalesCounting;
using Supermarket.SalesAggregator.Questions;

namespace Supermarket.SalesAggregator.Sharding;

/// <summary>The part of the sales matrix this aggregator counts and answers for: shard <see cref="Number"/> of
/// <see cref="Count"/>, its items of every store, and the memory that takes.</summary>
public sealed record SalesShard(int Number, int Count, ItemRange Items, int MaxItemId, int MaxStores)
{
    public static SalesShard Of(AggregatorOptions aggregator, SalesShardOptions shards, CatalogOptions catalog) =>
        new(aggregator.Shard, shards.Count, shards.ItemsOf(aggregator.Shard, catalog.MaxItemId), catalog.MaxItemId, catalog.MaxStoreId);

    /// <summary>The matrix's counters and tile maxima; a checkpoint holds a copy of the same size meanwhile.</summary>
    public long MatrixBytes => SalesMatrix.BytesFor(Items.Count, MaxStores);

    public SalesMatrix NewMatrix() => new(MaxItemId, MaxStores, Items);

    /// <summary>The shard's sales of each day, for questions over a range of days.</summary>
    public SalesByDay NewDays(int daysKept) => new(MaxStores, Items, daysKept);
}
