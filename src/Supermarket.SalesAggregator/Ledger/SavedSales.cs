namespace Supermarket.SalesAggregator.Ledger;

/// <summary>What a checkpoint keeps beside the matrix: the days (a snapshot of them) and the units counted without a
/// day (SalesLedgerFeed), all as of the checkpoint's position.</summary>
public sealed record SavedSales(SalesCounting.SalesByDaySnapshot Days, long UndatedUnits);

/// <summary>A checkpoint loaded: how far through the ledger it counted, and its units without a day.</summary>
public readonly record struct LoadedCheckpoint(LedgerPosition Position, long UndatedUnits);
