using MassTransit;
using Supermarket.Contracts.Purchases;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>
/// Stores the groups the API published (one message each), several groups to a transaction: the writer sizes its
/// transactions (Writer:GroupsPerTransaction), not the ingest batcher, whose groups shrink as load falls. MassTransit
/// acknowledges the messages only after the commit.
/// </summary>
public sealed class PurchaseBatchRecordedConsumer(PurchaseWriter writer) : IConsumer<Batch<PurchaseBatchRecorded>>
{
    public Task Consume(ConsumeContext<Batch<PurchaseBatchRecorded>> context) =>
        writer.StoreAsync([.. context.Message.SelectMany(message => message.Message.Purchases)], context);
}
