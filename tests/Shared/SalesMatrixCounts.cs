using Supermarket.SalesCounting;

namespace Supermarket.Tests.Shared;

/// <summary>One counter of a <see cref="SalesMatrix"/>, for tests that check a single cell: read through the two
/// rankings the sales questions read, since the matrix itself answers nothing finer (linked into each test project
/// that needs it).</summary>
internal static class SalesMatrixCounts
{
    /// <summary>The units of <paramref name="itemId"/> sold at <paramref name="storeId"/>. A ranking lists at most
    /// <see cref="SalesMatrix.MaxRankedCount"/>; one that lists fewer lists every id with a sale, so the cell is read
    /// from the item's stores, or else from the store's items, and only a cell below both full rankings is unknown.</summary>
    public static long UnitsSold(this SalesMatrix matrix, int storeId, int itemId)
    {
        // The item's ranking refuses an item the matrix does not count, but would only leave out a store beyond it.
        ArgumentOutOfRangeException.ThrowIfLessThan(storeId, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(storeId, matrix.MaxStores);
        Span<RankedSales> best = stackalloc RankedSales[SalesMatrix.MaxRankedCount];
        if (Find(best[..matrix.TopStoresForItem(itemId, best)], storeId, best.Length) is { } ofTheItem)
        {
            return ofTheItem;
        }

        return Find(best[..matrix.TopItemsAtStore(storeId, best)], itemId, best.Length)
            ?? throw new InvalidOperationException(
                $"Item {itemId} at store {storeId} ranks below the top {best.Length} both of the item's stores and of the store's items.");
    }

    /// <summary>The units of <paramref name="id"/> in a ranking; 0 when a ranking that is not full leaves it out; null
    /// when a full one does.</summary>
    private static long? Find(ReadOnlySpan<RankedSales> ranked, int id, int capacity)
    {
        foreach (var sales in ranked)
        {
            if (sales.Id == id)
            {
                return sales.Units;
            }
        }

        return ranked.Length < capacity ? 0 : null;
    }
}
