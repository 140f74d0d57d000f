using Supermarket.Contracts.Purchases;

namespace Supermarket.Contracts.History;

public sealed record PurchaseHistoryPage(StoredPurchase[] Purchases, HistoryPosition? Next)
{
    public const int MaxPageSize = 500;
}

public sealed record StoredPurchase(Guid PurchaseId, int StoreId, int CustomerId, DateOnly Date, DateTimeOffset ReceivedAt, PurchaseLine[] Items);

public sealed record HistoryPosition(DateOnly Date, DateTimeOffset ReceivedAt, Guid PurchaseId);
