using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.Database.IdempotencyKeys;

namespace Supermarket.PurchasesWriter.IdempotencyKeys;

/// <summary>
/// Remembers the first request each store made with each Idempotency-Key (<see cref="IIdempotencyKeyStore"/>), so the
/// API can refuse the key for a different purchase instead of merging two purchases under one id: the answer says
/// whether this request is the key's first one, or the same one again.
/// </summary>
public sealed class ClaimIdempotencyKeyConsumer(IIdempotencyKeyStore keys) : IConsumer<ClaimIdempotencyKey>
{
    public async Task Consume(ConsumeContext<ClaimIdempotencyKey> context)
    {
        var claim = context.Message;
        var first = await keys.FirstRequestHashAsync(claim, context.CancellationToken);
        await context.RespondAsync(new IdempotencyKeyClaimed(first.AsSpan().SequenceEqual(claim.RequestHash)));
    }
}
