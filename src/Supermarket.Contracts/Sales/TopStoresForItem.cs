namespace Supermarket.Contracts.Sales;

/// <summary>Asks the Sales aggregator for the stores that sold the most of one item: of all time, or of the purchases
/// dated <see cref="From"/> to <see cref="To"/>, as <see cref="TopItemsForStore"/>.</summary>
public sealed record TopStoresForItem(int ItemId, int Count, DateOnly? From = null, DateOnly? To = null);

/// <summary>The answer to <see cref="TopStoresForItem"/>, best first; nothing ranked when the range was refused.</summary>
public sealed record TopStoresOfItem(int ItemId, StoreSales[] Stores, long CountedThrough, RangeRefused? Refused = null) : ISalesAnswer;

public readonly record struct StoreSales(int StoreId, long Units);
