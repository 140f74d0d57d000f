using MassTransit;
using Supermarket.Contracts.Purchases;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>Several groups a transaction: the writer sizes them, not the API, whose groups shrink as load falls.
/// MassTransit acknowledges the messages only after the commit.</summary>
public sealed class PurchaseBatchRecordedConsumer(PurchaseWriter writer) : IConsumer<Batch<PurchaseBatchRecorded>>
{
    public Task Consume(ConsumeContext<Batch<PurchaseBatchRecorded>> context) =>
        writer.StoreAsync([.. context.Message.SelectMany(message => message.Message.Purchases)], context);
}
