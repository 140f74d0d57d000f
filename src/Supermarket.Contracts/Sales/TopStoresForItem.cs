namespace Supermarket.Contracts.Sales;

/// <summary>Asks the Sales aggregator for the stores that sold the most of one item.</summary>
public sealed record TopStoresForItem(int ItemId, int Count);

/// <summary>The answer to <see cref="TopStoresForItem"/>, best first.</summary>
public sealed record TopStoresOfItem(int ItemId, StoreSales[] Stores, long CountedThrough) : ISalesAnswer;

public readonly record struct StoreSales(int StoreId, long Units);
