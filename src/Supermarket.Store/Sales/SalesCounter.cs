using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.Sales;
using Supermarket.Store.Recovery;

namespace Supermarket.Store.Sales;

/// <summary>Adds every recorded purchase to the matrix, except one the start-up rebuild already counted.</summary>
public sealed class SalesCounter(SalesMatrix matrix, RecoveredPurchases recovered) : IConsumer<PurchaseRecorded>
{
    public Task Consume(ConsumeContext<PurchaseRecorded> context)
    {
        var purchase = context.Message;
        if (!recovered.Contains(purchase.PurchaseId))
        {
            matrix.RecordPurchase(purchase.StoreId, purchase.Items);
        }

        return Task.CompletedTask;
    }
}
