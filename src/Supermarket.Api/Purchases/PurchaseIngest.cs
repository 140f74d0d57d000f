using Microsoft.Extensions.Options;
using Supermarket.Api.Broker;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Purchases;

/// <summary>POST /purchase's use case: refuse at once while the broker is gone, stamp the id, claim the key, then have
/// the broker confirm it in a group (<see cref="PurchaseBatcher"/>), all within the request's one deadline.</summary>
public sealed class PurchaseIngest(
    PurchaseBatcher batcher, BrokerConnection broker, IdempotencyKeyClaimClient claims, IngestMetrics metrics, TimeProvider clock,
    IOptions<IngestOptions> options)
{
    public async Task<PurchaseRecording> RecordAsync(PurchaseRequest request, CancellationToken requestAborted)
    {
        using var deadline = new RequestDeadline(options.Value.RequestDeadline, requestAborted);
        // Before the writer is asked about the key or a confirm that cannot come is awaited.
        if (!broker.WorthTrying())
        {
            metrics.RefusedWhileBrokerGone();
            return new PurchaseRecording(RecordingOutcome.BrokerAway, Guid.Empty);
        }

        var purchase = Stamp(request);
        if (request.IdempotencyKey is { } key)
        {
            switch (await claims.ClaimAsync(purchase, key, deadline))
            {
                case KeyClaim.OtherRequest:
                    return new PurchaseRecording(RecordingOutcome.KeyUsedForAnotherPurchase, purchase.PurchaseId);
                case KeyClaim.Unanswered:
                    return new PurchaseRecording(RecordingOutcome.KeyUnchecked, purchase.PurchaseId);
            }
        }

        var outcome = await batcher.SubmitAsync(purchase, deadline) switch
        {
            PublishOutcome.Confirmed => RecordingOutcome.Recorded,
            PublishOutcome.NotPublished => RecordingOutcome.NotPublished,
            _ => RecordingOutcome.OutcomeUnknown,
        };
        return new PurchaseRecording(outcome, purchase.PurchaseId);
    }

    /// <summary>Derived from the store's key if it sent one (a retry is the same purchase), else a UUIDv7.</summary>
    private PurchaseRecorded Stamp(PurchaseRequest request)
    {
        var now = clock.GetUtcNow();
        var id = request.IdempotencyKey is null
            ? Guid.CreateVersion7(now)
            : PurchaseIds.ForIdempotencyKey(request.StoreId, request.Date, request.IdempotencyKey);
        return new PurchaseRecorded(id, request.StoreId, request.CustomerId, request.Date, request.Items, now);
    }
}
