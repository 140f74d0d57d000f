using Supermarket.Contracts.Purchases;

namespace Supermarket.Contracts.History;

/// <summary>The answer to a history question: up to a page of purchases, newest first, and where the next page
/// starts (null when this page is the last).</summary>
public sealed record PurchaseHistoryPage(StoredPurchase[] Purchases, HistoryPosition? Next)
{
    /// <summary>The most purchases a page may hold, whatever the asker configured.</summary>
    public const int MaxPageSize = 500;
}

/// <summary>A purchase as the writer stored it, lines in the order the till sent them.</summary>
public sealed record StoredPurchase(Guid PurchaseId, int StoreId, int CustomerId, DateOnly Date, DateTimeOffset ReceivedAt, PurchaseLine[] Items);

/// <summary>A place in the history's order (purchase date, then the moment the API accepted the purchase, then its
/// id, all descending): a page holds the purchases after it. Keyset paging, so a page costs the same however deep it
/// is, and purchases arriving meanwhile neither shift nor repeat the pages.</summary>
public sealed record HistoryPosition(DateOnly Date, DateTimeOffset ReceivedAt, Guid PurchaseId);
