using System.Diagnostics;
using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Api.Broker;
using Supermarket.Contracts.Purchases;
using Supermarket.Messaging;

namespace Supermarket.Api.Purchases;

/// <summary>Publishes a group to its fanout, always mandatory: a fanout with no queue bound returns the message, so
/// the publish fails rather than succeed for purchases that went nowhere.</summary>
public sealed class ConfirmedPublisher(IBus bus, IOptions<BrokerOptions> broker, BrokerConnection connection,
    IngestMetrics metrics, ILogger<ConfirmedPublisher> logger)
{
    private readonly bool _persistent = broker.Value.PersistentDelivery;

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
    Confirmed,

    /// <summary>Never sent, or refused by the broker: nothing will be recorded.</summary>
    NotPublished,

    /// <summary>Sent, and no answer from the broker in time: it may or may not be recorded.</summary>
    Unknown,
}
