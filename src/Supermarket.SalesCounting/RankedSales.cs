namespace Supermarket.SalesCounting;

/// <summary>An item or a store (<paramref name="Id"/>) and the units it sold, as ranked by <see cref="SalesMatrix"/>.</summary>
public readonly record struct RankedSales(int Id, long Units);
