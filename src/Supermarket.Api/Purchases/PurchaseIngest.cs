using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Purchases;
using Supermarket.Hosting.Messaging;

namespace Supermarket.Api.Purchases;

/// <summary>Publishes an accepted purchase to the fanout and reports whether the broker confirmed it in time.</summary>
public sealed class PurchaseIngest(IBus bus, IOptions<BrokerOptions> broker, IOptions<IngestOptions> options,
    TimeProvider clock, ILogger<PurchaseIngest> logger)
{
    private readonly bool _persistent = broker.Value.PersistentDelivery;
    private readonly TimeSpan _publishTimeout = options.Value.PublishTimeout;

    public PurchaseRecorded Stamp(int storeId, int customerId, DateOnly date, PurchaseLine[] items)
    {
        var now = clock.GetUtcNow();
        return new PurchaseRecorded(Guid.CreateVersion7(now), storeId, customerId, date, items, now);
    }

    /// <summary>True once RabbitMQ has confirmed the publish (publisher confirms are on for the whole bus);
    /// false if it did not within the publish timeout, in which case the client is told to retry.</summary>
    public async Task<bool> PublishAsync(PurchaseRecorded purchase, CancellationToken requestAborted)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(requestAborted);
        timeout.CancelAfter(_publishTimeout);
        try
        {
            await bus.Publish(purchase, context =>
            {
                context.Durable = _persistent;
                // Mandatory: a fanout with no queue bound yet returns the message, and the publish fails
                // instead of a 201 for a purchase that went nowhere.
                if (context.TryGetPayload<RabbitMqSendContext>(out var rabbit))
                {
                    rabbit.Mandatory = true;
                }
            }, timeout.Token);
            return true;
        }
        catch (Exception exception) when (!requestAborted.IsCancellationRequested)
        {
            // A cancelled wait may still have reached the broker, so the purchase may yet arrive; the writers are
            // idempotent on its id, but a client that retries sends a new purchase. See README, "Guarantees".
            logger.LogWarning(exception, "Purchase {PurchaseId} was not confirmed by the broker", purchase.PurchaseId);
            return false;
        }
    }
}
