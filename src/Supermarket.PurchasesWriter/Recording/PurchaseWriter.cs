using System.Diagnostics;
using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.Database.Purchases;

namespace Supermarket.PurchasesWriter.Recording;

public sealed class PurchaseWriter(IPurchaseStore store, DatabaseAvailability database,
    UnstorablePurchases unstorable, WriterMetrics metrics, ILogger<PurchaseWriter> logger)
{
    /// <summary>A failure other than MySQL refusing the purchases (the database away) is left to the retry.</summary>
    public async Task StoreAsync(PurchaseRecorded[] purchases, ConsumeContext context)
    {
        var started = Stopwatch.GetTimestamp();
        try
        {
            var stored = await WriteOrSetAsideAsync(purchases, context);
            database.Reached();
            metrics.Stored(purchases.Length, stored, Stopwatch.GetElapsedTime(started));
        }
        catch (Exception exception) when (exception is not OperationCanceledException)
        {
            database.Failed(exception);
            metrics.Failed();
            logger.LogWarning(exception, "Writing a batch of {Count} purchases failed (attempt {Attempt}): {PurchaseIds}",
                purchases.Length, context.GetRetryAttempt() + 1, string.Join(",", purchases.Select(p => p.PurchaseId)));
            throw;
        }
    }

    /// <summary>A batch MySQL refuses as it is would be refused again, holding its other purchases: each is then stored
    /// alone, and those still refused are set aside.</summary>
    private async Task<int> WriteOrSetAsideAsync(PurchaseRecorded[] purchases, ConsumeContext context)
    {
        try
        {
            return await store.WriteAsync(purchases, context.CancellationToken);
        }
        catch (Exception exception) when (StorageFailure.IsUnstorable(exception))
        {
            logger.LogWarning(exception, "MySQL refused a batch of {Count} purchases as it is; storing each alone", purchases.Length);
        }

        var stored = 0;
        foreach (var purchase in purchases.DistinctBy(p => p.PurchaseId))
        {
            try
            {
                stored += await store.WriteAsync([purchase], context.CancellationToken);
            }
            catch (Exception exception) when (StorageFailure.IsUnstorable(exception))
            {
                await unstorable.SetAsideAsync(purchase, exception, context);
            }
        }

        return stored;
    }
}
