using System.Collections.Concurrent;
using Supermarket.Contracts.Purchases;
using Supermarket.Database.IdempotencyKeys;
using Supermarket.PurchasesWriter.IdempotencyKeys;

namespace Supermarket.PurchasesWriter.Tests.IdempotencyKeys;

/// <summary>The claims in memory, the first one per store and key kept, as <see cref="IdempotencyKeyStore"/>'s primary
/// key keeps MySQL's.</summary>
public sealed class IdempotencyKeysInMemory : IIdempotencyKeyStore
{
    private readonly ConcurrentDictionary<(int Store, string Key), byte[]> _first = new();

    public Task<byte[]> FirstRequestHashAsync(ClaimIdempotencyKey claim, CancellationToken cancellationToken) =>
        Task.FromResult(_first.GetOrAdd((claim.StoreId, claim.Key), claim.RequestHash));
}
