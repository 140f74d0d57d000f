using Supermarket.Contracts.Purchases;

namespace Supermarket.Database.IdempotencyKeys;

public interface IIdempotencyKeyStore
{
    /// <summary>The key's first claim's request hash (this one's, if first); racing claims get the same.</summary>
    Task<byte[]> FirstRequestHashAsync(ClaimIdempotencyKey claim, CancellationToken cancellationToken);
}
