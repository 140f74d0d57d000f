namespace Supermarket.Contracts.Ledger;

/// <summary>So many units of one item sold at one store: what the sales ledger records and the matrix adds up.</summary>
public readonly record struct SaleLine(int StoreId, int ItemId, long Quantity);
