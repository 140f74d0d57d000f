using System.Diagnostics;
using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.Database.Purchases;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>
/// Records the purchases of consumed messages in the store (<see cref="IPurchaseStore"/>, MySQL in production): what
/// MySQL refuses as it is goes aside alone, and a database away is reported (health, metrics, log) and left to
/// MassTransit's retry.
/// </summary>
public sealed class PurchaseWriter(IPurchaseStore store, DatabaseAvailability database,
    UnstorablePurchases unstorable, WriterMetrics metrics, ILogger<PurchaseWriter> logger)
{
    /// <summary>Stores the purchases of one consumed message (or MassTransit batch), setting aside alone any that MySQL
    /// refuses as they are. Any other failure (the database away) logs every id and rethrows for MassTransit's retry,
    /// which tries again until the database is back.</summary>
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

    /// <summary>
    /// Stores the batch in one transaction. When MySQL refuses something in it as it is (a data or constraint error:
    /// <see cref="StorageFailure.IsUnstorable"/>), retrying the batch would change nothing and would hold its other
    /// stores' purchases with it: each purchase is then stored alone, and those MySQL still refuses are set aside.
    /// Rare, so the one-by-one path costs nothing on the common one.
    /// </summary>
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
