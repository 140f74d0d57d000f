namespace Supermarket.Contracts.Sales;

public sealed record TopItemsForStore(int StoreId, int Count, DateOnly? From = null, DateOnly? To = null);

public sealed record TopItemsAtStore(int StoreId, ItemSales[] Items, long CountedThrough, RangeRefused? Refused = null, CountingStatus[]? Counting = null)
    : ISalesAnswer;

public readonly record struct ItemSales(int ItemId, long Units);
