using Supermarket.Api.Broker;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Purchases;

/// <summary>Stamps an accepted purchase and gets it confirmed by the broker, grouped with the purchases that arrive
/// with it (<see cref="PurchaseBatcher"/>). The seeds' design, a message per purchase, is measured in docs/performance.md
/// from the last commit that had it (c570b80), not kept here.</summary>
public sealed class PurchaseIngest(PurchaseBatcher batcher, BrokerConnection broker, IngestMetrics metrics, TimeProvider clock)
{

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
    public Task<bool> PublishAsync(PurchaseRecorded purchase, RequestDeadline deadline) => batcher.SubmitAsync(purchase, deadline);
}
