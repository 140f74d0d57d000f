namespace Supermarket.Contracts.Sales;

/// <summary>Asks the Sales aggregator for the best-selling items at one store: of all time, or of the purchases dated
/// <see cref="From"/> to <see cref="To"/>, both days inclusive (either left out: from the first day kept, to the last
/// day with a sale).</summary>
public sealed record TopItemsForStore(int StoreId, int Count, DateOnly? From = null, DateOnly? To = null);

/// <summary>The answer to <see cref="TopItemsForStore"/>, best first; nothing ranked when the range was refused. With it,
/// what each shard's counting that answered was doing (none from an aggregator of a release before the live page).</summary>
public sealed record TopItemsAtStore(int StoreId, ItemSales[] Items, long CountedThrough, RangeRefused? Refused = null, CountingStatus[]? Counting = null)
    : ISalesAnswer;

public readonly record struct ItemSales(int ItemId, long Units);
