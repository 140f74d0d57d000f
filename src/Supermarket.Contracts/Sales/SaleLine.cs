namespace Supermarket.Contracts.Sales;

/// <summary><see cref="Day"/> is <c>default</c> in a line of a ledger entry of format 0 (no days).</summary>
public readonly record struct SaleLine(int StoreId, int ItemId, long Quantity, DateOnly Day = default);
