namespace Supermarket.Contracts.Sales;

public sealed record TopStoresForItem(int ItemId, int Count, DateOnly? From = null, DateOnly? To = null);

public sealed record TopStoresOfItem(int ItemId, StoreSales[] Stores, long CountedThrough, RangeRefused? Refused = null) : ISalesAnswer;

public readonly record struct StoreSales(int StoreId, long Units);
