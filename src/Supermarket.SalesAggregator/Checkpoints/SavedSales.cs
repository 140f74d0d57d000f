using Supermarket.SalesAggregator.Ledger;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Checkpoints;

/// <summary>What a checkpoint keeps beside the matrix: the days (a snapshot of them) and the units counted without a
/// day (SalesLedgerFeed), all as of the checkpoint's position.</summary>
public sealed record SavedSales(SalesByDaySnapshot Days, long UndatedUnits);

/// <summary>The matrix as a checkpoint saves it, as of the checkpoint's position.</summary>
public abstract record SavedMatrix(SalesMatrix Shape)
{
    /// <summary>A whole copy, nothing recording into it: written into a base file of its own, which the checkpoints
    /// after it name too.</summary>
    public sealed record Whole(SalesMatrix Copy) : SavedMatrix(Copy);

    /// <summary>The chunks changed since <paramref name="Base"/> (a base file an earlier save wrote) was taken, of a
    /// matrix of <paramref name="Shape"/>'s size (only its size is read).</summary>
    public sealed record Changed(SalesMatrix Shape, string Base, MatrixDelta Delta) : SavedMatrix(Shape);
}

/// <summary>A checkpoint loaded: how far through the ledger it counted, and its units without a day.</summary>
public readonly record struct LoadedCheckpoint(LedgerPosition Position, long UndatedUnits)
{
    /// <summary>The base file the matrix was read from and the chunks that changed since it was taken; null when the
    /// checkpoint held the matrix whole (version 6).</summary>
    public MatrixBase? Base { get; init; }
}

/// <summary>A matrix's base file and the chunks changed since it was taken, as a checkpoint names them.</summary>
public sealed record MatrixBase(string Name, MatrixDelta Changed);
