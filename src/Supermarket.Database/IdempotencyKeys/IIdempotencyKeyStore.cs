using Supermarket.Contracts.Purchases;

namespace Supermarket.Database.IdempotencyKeys;

/// <summary>Each store's Idempotency-Keys with the request that first claimed them: MySQL in production
/// (<see cref="IdempotencyKeyStore"/>); the seam the writer's fast tests replace.</summary>
public interface IIdempotencyKeyStore
{
    /// <summary>Records the claim unless its store already claimed the key, and returns the request hash of the key's
    /// first claim (this one's, when it is the first). Two claims racing for one key get the same answer.</summary>
    Task<byte[]> FirstRequestHashAsync(ClaimIdempotencyKey claim, CancellationToken cancellationToken);
}
