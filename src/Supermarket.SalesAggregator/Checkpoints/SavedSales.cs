using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Checkpoints;

public sealed record SavedSales(SalesByDaySnapshot Days, long UndatedUnits);

public abstract record SavedMatrix(SalesMatrix Shape)
{
    public sealed record Whole(SalesMatrix Copy) : SavedMatrix(Copy);

    /// <summary>Of <paramref name="Shape"/> only the size is read.</summary>
    public sealed record Changed(SalesMatrix Shape, string Base, MatrixDelta Delta) : SavedMatrix(Shape);
}

public readonly record struct LoadedCheckpoint(LedgerPosition Position, long UndatedUnits)
{
    public MatrixBase? Base { get; init; }
}

public sealed record MatrixBase(string Name, MatrixDelta Changed);
