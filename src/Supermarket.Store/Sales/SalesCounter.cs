using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.Sales;
using Supermarket.Store.Recovery;

namespace Supermarket.Store.Sales;

/// <summary>Adds every purchase the writer has stored to the matrix, except one already counted. Waits for the
/// start-up rebuild to finish first.</summary>
public sealed class SalesCounter(SalesMatrix matrix, CountedPurchases counted, SalesMetrics metrics) : IConsumer<PurchasesStored>
{
    public async Task Consume(ConsumeContext<PurchasesStored> context)
    {
        await counted.Ready.WaitAsync(context.CancellationToken);
        var duplicates = 0;
        foreach (var purchase in context.Message.Purchases)
        {
            if (counted.TryAdd(purchase.PurchaseId))
            {
                matrix.RecordPurchase(purchase.StoreId, purchase.Items);
            }
            else
            {
                duplicates++;
            }
        }

        metrics.Counted(context.Message.Purchases.Length - duplicates, duplicates);
    }
}
