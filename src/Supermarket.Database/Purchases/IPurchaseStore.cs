using Supermarket.Contracts.Purchases;

namespace Supermarket.Database.Purchases;

public interface IPurchaseStore
{
    Task<int> WriteAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken);

    /// <summary>The writer's warm-up: the same transaction rolled back, so nothing is stored and no seq taken.</summary>
    Task RehearseAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken);
}
