using Supermarket.Contracts.History;

namespace Supermarket.Database.History;

public interface IPurchaseHistory
{
    Task<PurchaseHistoryPage> AtStoreAsync(PurchasesAtStore question, CancellationToken cancellationToken);

    Task<PurchaseHistoryPage> OfCustomerAsync(PurchasesOfCustomer question, CancellationToken cancellationToken);
}
