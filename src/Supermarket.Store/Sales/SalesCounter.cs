using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.Sales;
using Supermarket.Store.Recovery;

namespace Supermarket.Store.Sales;

/// <summary>Adds every recorded purchase to the matrix, whether it came alone or in a batch, except one the
/// start-up rebuild already counted. Waits for the rebuild to finish first.</summary>
public sealed class SalesCounter(SalesMatrix matrix, RecoveredPurchases recovered)
    : IConsumer<PurchaseRecorded>, IConsumer<PurchaseBatchRecorded>
{
    public async Task Consume(ConsumeContext<PurchaseRecorded> context)
    {
        await recovered.Ready.WaitAsync(context.CancellationToken);
        Count(context.Message);
    }

    public async Task Consume(ConsumeContext<PurchaseBatchRecorded> context)
    {
        await recovered.Ready.WaitAsync(context.CancellationToken);
        foreach (var purchase in context.Message.Purchases)
        {
            Count(purchase);
        }
    }

    private void Count(PurchaseRecorded purchase)
    {
        if (!recovered.Contains(purchase.PurchaseId))
        {
            matrix.RecordPurchase(purchase.StoreId, purchase.Items);
        }
    }
}
