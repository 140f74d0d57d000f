using Supermarket.Contracts.Purchases;

namespace Supermarket.Database.Purchases;

/// <summary>Where purchases and their sales ledger entries are kept, each purchase once: MySQL in production
/// (<see cref="PurchaseStore"/>); the seam the writer's fast tests replace.</summary>
public interface IPurchaseStore
{
    /// <summary>Stores the purchases not stored yet, with their ledger entry, in one transaction; returns how many
    /// that was. Throws what MySQL said when it refused them or could not be reached.</summary>
    Task<int> WriteAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken);

    /// <summary>The same transaction, every statement sent and run, rolled back instead of committed: nothing is
    /// stored and no ledger seq taken (the writer's warm-up).</summary>
    Task RehearseAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken);
}
