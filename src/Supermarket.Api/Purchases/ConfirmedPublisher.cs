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

    /// <summary>Confirmed once the broker confirmed the message within the attempt's time (what is left of the latest of
    /// its requests' deadlines); not published when it never left or the broker refused it; otherwise not known.</summary>
    public async Task<PublishOutcome> PublishAsync(PurchaseBatchRecorded message, PublishAttempt attempt)
    {
        var purchases = message.Purchases;
        var started = Stopwatch.GetTimestamp();
        try
        {
            await bus.Publish(message, context =>
            {
                if (!attempt.TryStartSending())
                {
                    throw new OperationCanceledException("The publish was given up before it reached a channel.");
                }

                context.GetOrAddPayload(() => attempt);
                context.Durable = _persistent;
                if (context.TryGetPayload<RabbitMqSendContext>(out var rabbit))
                {
                    rabbit.Mandatory = true;
                }
            }, attempt.Token);
            connection.Confirmed();
            metrics.Published(purchases.Length, Stopwatch.GetElapsedTime(started), "confirmed");
            return PublishOutcome.Confirmed;
        }
        catch (Exception exception)
        {
            metrics.Published(purchases.Length, Stopwatch.GetElapsedTime(started), attempt.Refused ? "refused" : "unconfirmed");
            if (attempt.Refused)
            {
                // Expected while storage is behind; the 503s are counted, not each logged with its ids.
                logger.LogDebug("A group of {Count} purchases was refused by the broker: a queue is at its length limit", purchases.Length);
                return PublishOutcome.NotPublished;
            }

            if (attempt.TryGiveUp())
            {
                logger.LogDebug("A group of {Count} purchases was not published: no channel to the broker in time", purchases.Length);
                return PublishOutcome.NotPublished;
            }

            // It may have left before the wait ended: the purchases may yet arrive.
            logger.LogWarning(exception, "A group of {Count} purchases was not confirmed by the broker: {PurchaseIds}",
                purchases.Length, string.Join(",", purchases.Select(p => p.PurchaseId)));
            return PublishOutcome.Unknown;
        }
    }
}

/// <summary>What became of a publish: what the requests in its group may promise about their purchases.</summary>
public enum PublishOutcome
{
    /// <summary>The broker confirmed it: 201.</summary>
    Confirmed,

    /// <summary>Never sent, or refused by the broker: nothing will be recorded.</summary>
    NotPublished,

    /// <summary>Sent, and no answer from the broker in time: it may or may not be recorded.</summary>
    Unknown,
}
