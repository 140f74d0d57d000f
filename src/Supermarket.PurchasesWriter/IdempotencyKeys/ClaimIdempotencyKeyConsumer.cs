using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.Database.IdempotencyKeys;

namespace Supermarket.PurchasesWriter.IdempotencyKeys;

/// <summary>Each key's first request is kept: the API refuses the key for another purchase, not merging two.</summary>
public sealed class ClaimIdempotencyKeyConsumer(IIdempotencyKeyStore keys) : IConsumer<ClaimIdempotencyKey>
{
    public async Task Consume(ConsumeContext<ClaimIdempotencyKey> context)
    {
        var claim = context.Message;
        var first = await keys.FirstRequestHashAsync(claim, context.CancellationToken);
        await context.RespondAsync(new IdempotencyKeyClaimed(first.AsSpan().SequenceEqual(claim.RequestHash)));
    }
}
