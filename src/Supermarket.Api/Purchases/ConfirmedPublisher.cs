using System.Diagnostics;
using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Api.Broker;
using Supermarket.Contracts.Purchases;
using Supermarket.Messaging;

namespace Supermarket.Api.Purchases;

/// <summary>
/// Publishes a group of purchases to their fanout and reports whether RabbitMQ confirmed it in time (publisher confirms are on for
/// the whole bus). Persistent or transient as configured; always mandatory, so a fanout with no queue bound returns
/// the message and the publish fails rather than succeeding for a purchase that went nowhere.
/// </summary>
public sealed class ConfirmedPublisher(IBus bus, IOptions<BrokerOptions> broker, BrokerConnection connection,
    IngestMetrics metrics, ILogger<ConfirmedPublisher> logger)
{
    private readonly bool _persistent = broker.Value.PersistentDelivery;

    /// <summary>True once the broker confirmed the message <paramref name="within"/> the time given (what is left of the
    /// latest of its requests' deadlines).</summary>
    public async Task<bool> PublishAsync(PurchaseBatchRecorded message, TimeSpan within, CancellationToken aborted)
    {
        var purchases = message.Purchases;
        var started = Stopwatch.GetTimestamp();
        using var attempt = new PublishAttempt(within, aborted);
        try
        {
            await bus.Publish(message, context =>
            {
                context.GetOrAddPayload(() => attempt);
                context.Durable = _persistent;
                if (context.TryGetPayload<RabbitMqSendContext>(out var rabbit))
                {
                    rabbit.Mandatory = true;
                }
            }, attempt.Token);
            connection.Confirmed();
            metrics.Published(purchases.Length, Stopwatch.GetElapsedTime(started), "confirmed");
            return true;
        }
        catch (Exception exception) when (!aborted.IsCancellationRequested)
        {
            // A cancelled wait may still have reached the broker, so the purchases may yet arrive; the writers are
            // idempotent on their ids, and a client that retries with its Idempotency-Key makes the same ids.
            metrics.Published(purchases.Length, Stopwatch.GetElapsedTime(started), attempt.Refused ? "refused" : "unconfirmed");
            if (attempt.Refused)
            {
                // Expected while storage is behind; the 503s are counted, not each logged with its ids.
                logger.LogDebug("A group of {Count} purchases was refused by the broker: a queue is at its length limit", purchases.Length);
            }
            else
            {
                logger.LogWarning(exception, "A group of {Count} purchases was not confirmed by the broker: {PurchaseIds}",
                    purchases.Length, string.Join(",", purchases.Select(p => p.PurchaseId)));
            }

            return false;
        }
    }
}
