using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.Messaging;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>
/// Where a purchase MySQL refuses as it is goes: alone, in a message of its own (the same <see cref="PurchaseBatchRecorded"/>
/// the API publishes, so it needs no other consumer), to <see cref="Topology.UnstorablePurchasesQueue"/>, which nothing
/// consumes. It is counted (<c>supermarket.writer.purchases.set_aside</c>) and logged as an error with its id and
/// MySQL's reason. Once the cause is fixed, the writer's <c>replay-unstorable</c> command on the AppHost (the AppHost's
/// UnstorablePurchasesReplay) moves the queue's messages back to the writer's fanout with RabbitMQ's shovel; one MySQL
/// still refuses comes back here.
/// </summary>
/// <remarks>The send is confirmed before the batch it came from is acknowledged. Should that batch be retried after
/// it (the database going away mid-batch), the purchase is set aside twice; the writer stores a purchase once
/// whatever number of times it is replayed.</remarks>
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
