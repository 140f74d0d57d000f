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

    /// <summary>True once RabbitMQ has confirmed the purchase; false if it did not within the publish timeout, or at
    /// once while the broker is known to be gone.</summary>
    public Task<bool> PublishAsync(PurchaseRecorded purchase, CancellationToken requestAborted)
    {
        if (!broker.WorthTrying())
        {
            metrics.RefusedWhileBrokerGone();
            return Task.FromResult(false);
        }

        return _groupCommit ? batcher.SubmitAsync(purchase, requestAborted) : publisher.PublishAsync(purchase, requestAborted);
    }
}
