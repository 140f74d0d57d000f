using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.Messaging;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>Set aside alone, in the API's message type, so that its replay needs no other consumer.</summary>
/// <remarks>The send is confirmed before the batch is acknowledged: a batch retried after it sets the purchase aside
/// twice, and a replay still stores it once.</remarks>
public sealed class UnstorablePurchases(WriterMetrics metrics, ILogger<UnstorablePurchases> logger)
{
    private static readonly Uri Queue = new($"queue:{Topology.UnstorablePurchasesQueue}");

    public async Task SetAsideAsync(PurchaseRecorded purchase, Exception refusal, ConsumeContext context)
    {
        var queue = await context.GetSendEndpoint(Queue);
        await queue.Send(new PurchaseBatchRecorded([purchase]), send => send.Durable = true, context.CancellationToken);
        metrics.SetAside();
        logger.LogError(refusal,
            "Purchase {PurchaseId} of store {StoreId} cannot be stored as it is ({Reason}); it was set aside in {Queue}. " +
            "Once the cause is fixed, the writer's command " + Topology.ReplayUnstorableCommandTitle + " on the dashboard " +
            "(`dotnet tool run aspire resource purchases-writer " + Topology.ReplayUnstorableCommand + "`) puts it back on the writer's path",
            purchase.PurchaseId, purchase.StoreId, refusal.Message, Topology.UnstorablePurchasesQueue);
    }
}
