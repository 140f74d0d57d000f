namespace Supermarket.Contracts.Sales;

/// <summary>Asks the Sales aggregator for the best-selling items at one store.</summary>
public sealed record TopItemsForStore(int StoreId, int Count);

/// <summary>The answer to <see cref="TopItemsForStore"/>, best first.</summary>
public sealed record TopItemsAtStore(int StoreId, ItemSales[] Items, long CountedThrough) : ISalesAnswer;

public readonly record struct ItemSales(int ItemId, long Units);
