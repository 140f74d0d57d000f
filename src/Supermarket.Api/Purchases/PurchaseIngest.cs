using Microsoft.Extensions.Options;
using Supermarket.Api.Broker;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Purchases;

/// <summary>Stamps an accepted purchase and gets it confirmed by the broker: grouped with others (the default), or
/// alone in its own message (Ingest:GroupCommit=false, the seeds' design, kept to compare).</summary>
public sealed class PurchaseIngest(ConfirmedPublisher publisher, PurchaseBatcher batcher, BrokerConnection broker,
    IngestMetrics metrics, IOptions<IngestOptions> options, TimeProvider clock)
{
    private readonly bool _groupCommit = options.Value.GroupCommit;

    /// <summary>Gives the purchase its id: from the store's idempotency key when it sent one (so a retry is the same
    /// purchase), otherwise a new time-ordered UUIDv7.</summary>
    public PurchaseRecorded Stamp(int storeId, int customerId, DateOnly date, PurchaseLine[] items, string? idempotencyKey)
    {
        var now = clock.GetUtcNow();
        var id = idempotencyKey is null ? Guid.CreateVersion7(now) : PurchaseIds.ForIdempotencyKey(storeId, date, idempotencyKey);
        return new PurchaseRecorded(id, storeId, customerId, date, items, now);
    }

    /// <summary>False while the broker is known to be gone: the POST answers 503 at once, before it asks the writer
    /// about its key or waits for a confirm that cannot come.</summary>
    public bool BrokerWorthTrying()
    {
        if (broker.WorthTrying())
        {
            return true;
        }

        metrics.RefusedWhileBrokerGone();
        return false;
    }

    /// <summary>True once RabbitMQ has confirmed the purchase; false if it did not by the request's deadline.</summary>
    public async Task<bool> PublishAsync(PurchaseRecorded purchase, RequestDeadline deadline)
    {
        if (_groupCommit)
        {
            return await batcher.SubmitAsync(purchase, deadline);
        }

        try
        {
            return await publisher.PublishAsync(purchase, deadline.Remaining, deadline.RequestAborted).WaitAsync(deadline.Ended);
        }
        catch (OperationCanceledException) when (!deadline.RequestAborted.IsCancellationRequested)
        {
            return false;
        }
    }
}
