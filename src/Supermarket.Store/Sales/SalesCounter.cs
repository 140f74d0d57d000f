using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.Sales;
using Supermarket.Store.Recovery;

namespace Supermarket.Store.Sales;

/// <summary>Adds every purchase the writer has stored to the matrix, except one already counted. Waits for the
/// start-up rebuild to finish first.</summary>
public sealed class SalesCounter(SalesMatrix matrix, CountedPurchases counted) : IConsumer<PurchasesStored>
{
    public async Task Consume(ConsumeContext<PurchasesStored> context)
    {
        await counted.Ready.WaitAsync(context.CancellationToken);
        foreach (var purchase in context.Message.Purchases)
        {
            if (counted.TryAdd(purchase.PurchaseId))
            {
                matrix.RecordPurchase(purchase.StoreId, purchase.Items);
            }
        }
    }
}
