using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Sharding;

public sealed record SalesShard(int Number, int Count, ItemRange Items, int MaxItemId, int MaxStores)
{
    public static SalesShard Of(AggregatorOptions aggregator, SalesShardOptions shards, CatalogOptions catalog) =>
        new(aggregator.Shard, shards.Count, shards.ItemsOf(aggregator.Shard, catalog.MaxItemId), catalog.MaxItemId, catalog.MaxStoreId);

    public long MatrixBytes => SalesMatrix.BytesFor(Items.Count, MaxStores);

    public SalesMatrix NewMatrix() => new(MaxItemId, MaxStores, Items);

    public SalesByDay NewDays(int daysKept) => new(MaxStores, Items, daysKept);
}
