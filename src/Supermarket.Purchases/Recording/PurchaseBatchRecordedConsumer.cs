using MassTransit;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Purchases.Recording;

/// <summary>
/// Stores a batch the API grouped into one message, in one transaction. Acknowledged only after the commit.
/// </summary>
public sealed class PurchaseBatchRecordedConsumer(PurchaseWriter writer) : IConsumer<PurchaseBatchRecorded>
{
    public Task Consume(ConsumeContext<PurchaseBatchRecorded> context) => writer.StoreAsync(context.Message.Purchases, context);
}
