using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Purchases;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>
/// Stores purchases published one per message, gathered by MassTransit into batches (Writer:BatchSize). MassTransit
/// acknowledges the messages only after this returns, that is after the transaction commits, so a crash mid-batch
/// redelivers rather than loses.
/// </summary>
public sealed class PurchaseRecordedConsumer(PurchaseWriter writer) : IConsumer<Batch<PurchaseRecorded>>
{
    public Task Consume(ConsumeContext<Batch<PurchaseRecorded>> context) =>
        writer.StoreAsync([.. context.Message.Select(message => message.Message)], context);
}

public sealed class PurchaseRecordedConsumerDefinition(IOptions<WriterOptions> options)
    : WriterQueueDefinition<PurchaseRecordedConsumer>(options.Value, options.Value.BatchSize);
