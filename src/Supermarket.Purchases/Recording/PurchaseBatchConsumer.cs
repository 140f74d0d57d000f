using MassTransit;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Purchases.Recording;

/// <summary>
/// Stores each batch of recorded purchases in MySQL. MassTransit acknowledges the batch's messages only after this
/// returns, that is after the transaction commits, so a crash mid-batch redelivers rather than loses.
/// </summary>
public sealed class PurchaseBatchConsumer(PurchaseWriter writer, ILogger<PurchaseBatchConsumer> logger)
    : IConsumer<Batch<PurchaseRecorded>>
{
    public async Task Consume(ConsumeContext<Batch<PurchaseRecorded>> context)
    {
        var purchases = new PurchaseRecorded[context.Message.Length];
        for (var i = 0; i < purchases.Length; i++)
        {
            purchases[i] = context.Message[i].Message;
        }

        try
        {
            await writer.WriteAsync(purchases, context.CancellationToken);
        }
        catch (Exception exception) when (exception is not OperationCanceledException)
        {
            logger.LogWarning(exception, "Writing a batch of {Count} purchases failed (attempt {Attempt}): {PurchaseIds}",
                purchases.Length, context.GetRetryAttempt() + 1, string.Join(",", purchases.Select(p => p.PurchaseId)));
            throw;
        }
    }
}
