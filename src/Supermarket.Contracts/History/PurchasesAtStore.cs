namespace Supermarket.Contracts.History;

/// <summary>Asks the Purchases writer for one store's purchases on one day, newest first, a page at a time.</summary>
/// <param name="After">Where the previous page ended; null for the first page.</param>
public sealed record PurchasesAtStore(int StoreId, DateOnly Date, HistoryPosition? After, int PageSize);
