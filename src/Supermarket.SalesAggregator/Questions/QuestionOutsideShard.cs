using Supermarket.Contracts.Sales;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>A question of an item this shard does not count, or of a store beyond its catalog: its asker splits the
/// items among shards otherwise, or has another catalog (SalesShards:Count, Catalog:MaxItemId, Catalog:MaxStoreId
/// differ between the API and the aggregators). Refused, so the API answers an error, where an empty answer would
/// read as "nothing sold" (#57).</summary>
public sealed class QuestionOutsideShard(string message) : Exception(message)
{
    /// <summary>Throws for the first question of <paramref name="questions"/> that <paramref name="matrix"/> does not hold.</summary>
    public static void ThrowIfAny(SalesMatrix matrix, IEnumerable<TopItemsForStore> topItems, IEnumerable<TopStoresForItem> topStores)
    {
        foreach (var question in topItems)
        {
            if (question.StoreId < 1 || question.StoreId > matrix.MaxStores)
            {
                throw new QuestionOutsideShard($"Asked of store {question.StoreId}, beyond this aggregator's stores 1-{matrix.MaxStores} (Catalog:MaxStoreId).");
            }
        }

        foreach (var question in topStores)
        {
            if (!matrix.Items.Contains(question.ItemId))
            {
                throw new QuestionOutsideShard($"Asked of item {question.ItemId}, which this shard does not count: its items are {matrix.Items} of 1-{matrix.MaxItemId} (SalesShards:Count, Catalog:MaxItemId).");
            }
        }
    }
}
