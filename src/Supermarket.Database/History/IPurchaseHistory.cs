using Supermarket.Contracts.History;

namespace Supermarket.Database.History;

/// <summary>Pages of stored purchases, newest first: MySQL in production (<see cref="PurchaseHistory"/>); the seam
/// the writer's fast tests replace.</summary>
public interface IPurchaseHistory
{
    Task<PurchaseHistoryPage> AtStoreAsync(PurchasesAtStore question, CancellationToken cancellationToken);

    Task<PurchaseHistoryPage> OfCustomerAsync(PurchasesOfCustomer question, CancellationToken cancellationToken);
}
