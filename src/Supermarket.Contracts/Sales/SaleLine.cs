namespace Supermarket.Contracts.Sales;

/// <summary>So many units of one item sold at one store on one day (the purchase's own date): what the sales ledger
/// records and the aggregator adds up. <see cref="Day"/> is <c>default</c> for a line of an entry written before entries
/// carried their day.</summary>
public readonly record struct SaleLine(int StoreId, int ItemId, long Quantity, DateOnly Day = default);
