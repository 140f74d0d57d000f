using Supermarket.Contracts.Sales;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>Its asker splits the items or sizes the catalog otherwise: refused, so the API answers an error, where an
/// empty answer would read as "nothing sold".</summary>
public sealed class QuestionOutsideShard(string message) : Exception(message)
{
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
