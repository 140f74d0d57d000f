using MassTransit;
using Supermarket.Contracts.Sales;
using Supermarket.Sales;

namespace Supermarket.Store.Sales;

/// <summary>Answers the API's questions from the live matrix. Served from a queue of its own, so a question
/// never waits behind a backlog of purchases.</summary>
public sealed class SalesQueries(SalesMatrix matrix) : IConsumer<TopItemsForStore>, IConsumer<TopStoresForItem>
{
    public Task Consume(ConsumeContext<TopItemsForStore> context)
    {
        var request = context.Message;
        Span<RankedSales> best = stackalloc RankedSales[Math.Clamp(request.Count, 1, SalesMatrix.MaxRankedCount)];
        var count = InRange(request.StoreId, matrix.MaxStores) ? matrix.TopItemsAtStore(request.StoreId, best) : 0;
        var items = new ItemSales[count];
        for (var i = 0; i < count; i++)
        {
            items[i] = new ItemSales(best[i].Id, best[i].Units);
        }

        return context.RespondAsync(new TopItemsAtStore(request.StoreId, items));
    }

    public Task Consume(ConsumeContext<TopStoresForItem> context)
    {
        var request = context.Message;
        Span<RankedSales> best = stackalloc RankedSales[Math.Clamp(request.Count, 1, SalesMatrix.MaxRankedCount)];
        var count = InRange(request.ItemId, matrix.MaxItemId) ? matrix.TopStoresForItem(request.ItemId, best) : 0;
        var stores = new StoreSales[count];
        for (var i = 0; i < count; i++)
        {
            stores[i] = new StoreSales(best[i].Id, best[i].Units);
        }

        return context.RespondAsync(new TopStoresOfItem(request.ItemId, stores));
    }

    private static bool InRange(int id, int max) => id >= 1 && id <= max;
}
