namespace Supermarket.Contracts.History;

public sealed record PurchasesAtStore(int StoreId, DateOnly Date, HistoryPosition? After, int PageSize);
