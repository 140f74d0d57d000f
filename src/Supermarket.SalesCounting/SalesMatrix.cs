using System.Numerics;
using System.Runtime.Intrinsics.X86;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;

namespace Supermarket.SalesCounting;

/// <summary>Units sold per (item, store) of one shard's items, updated lock-free from any number of threads and ranked
/// exactly on demand.</summary>
/// <remarks>Item-major, so an item's stores stream in one row; beside them each store's maximum of every tile of
/// <see cref="TileWidth"/> items, so a store's question opens only the tiles that could beat its K-th best. Counters
/// only grow, so a tile's maximum, raised by compare-and-swap after each add, lags by an update in flight at most;
/// ids are visited ascending, so a tie with the K-th best loses to the lower id already ranked.</remarks>
public sealed class SalesMatrix
{
    public const int MaxRankedCount = 100;

    // Wider tiles make a store's row of maxima shorter to scan and each tile opened dearer.
    private const int TileWidth = 8;
    private const int TileShift = 3;

    private readonly int _tiles;
    private readonly long[] _units;
    private readonly long[] _tileMax;

    /// <summary><paramref name="items"/>: this shard's, or <c>new ItemRange(1, maxItemId)</c> unsharded.</summary>
    public SalesMatrix(int maxItemId, int maxStores, ItemRange items)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxStores, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(items.First, 1, nameof(items));
        ArgumentOutOfRangeException.ThrowIfLessThan(items.Last, items.First, nameof(items));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(items.Last, maxItemId, nameof(items));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(CellsFor(items.Count, maxStores), Array.MaxLength, nameof(items));
        MaxItemId = maxItemId;
        MaxStores = maxStores;
        Items = items;
        _tiles = (items.Count + TileWidth - 1) / TileWidth;
        _units = new long[(long)items.Count * maxStores];
        _tileMax = new long[(long)_tiles * maxStores];
    }

    /// <summary>A sale of an item above it is no shard's, and is left out.</summary>
    public int MaxItemId { get; }

    public ItemRange Items { get; }

    public static long CellsFor(int items, int maxStores) => (long)items * maxStores;

    public static long BytesFor(int items, int maxStores) =>
        (CellsFor(items, maxStores) + ((long)((items + TileWidth - 1) / TileWidth) * maxStores)) * sizeof(long);

    public int MaxStores { get; }

    /// <summary>Returns how many lines were left out (outside the catalog, or negative) for the caller to report;
    /// other shards' items are passed over.</summary>
    /// <remarks>Each add is a cache miss, and a locked add waits for its own before the next starts: prefetching
    /// every cell first lets the misses overlap (a hint: it changes no result).</remarks>
    public unsafe int RecordSales(ReadOnlySpan<SaleLine> lines)
    {
        if (Sse.IsSupported)
        {
            fixed (long* units = _units, tileMax = _tileMax)
            {
                foreach (var line in lines)
                {
                    if (Holds(line))
                    {
                        Sse.Prefetch0(units + CellOf(line.StoreId, line.ItemId));
                        Sse.Prefetch0(tileMax + TileMaxOf(line.StoreId, line.ItemId));
                    }
                }
            }
        }

        var outside = 0;
        foreach (var line in lines)
        {
            if (!Holds(line))
            {
                if (!InCatalog(line) || line.Quantity < 0)
                {
                    outside++;
                }

                continue;
            }

            if (line.Quantity < 0)
            {
                outside++;
                continue;
            }

            var total = Interlocked.Add(ref _units[CellOf(line.StoreId, line.ItemId)], line.Quantity);
            RaiseTo(ref _tileMax[TileMaxOf(line.StoreId, line.ItemId)], total);
        }

        return outside;
    }

    /// <summary>Call it while nothing records into this matrix: a copy taken mid-update would be torn.</summary>
    public void CopyTo(SalesMatrix copy)
    {
        if (copy.MaxItemId != MaxItemId || copy.Items != Items || copy.MaxStores != MaxStores)
        {
            throw new ArgumentException("The copy must have the same dimensions.", nameof(copy));
        }

        _units.AsSpan().CopyTo(copy._units);
        _tileMax.AsSpan().CopyTo(copy._tileMax);
    }

    /// <summary>A checkpoint's copy takes this many counters between two reads of the ledger, so a question waiting
    /// for the next read is held up by a part, never by the whole copy.</summary>
    public const int CountersPerCopyPart = 1 << 21;

    public long Counters => _units.LongLength;

    /// <summary>A part of a copy taken between recordings; lines recorded meanwhile reach the parts already copied
    /// through <see cref="RecordSalesCopied"/>. Tile maxima are not copied: <see cref="Load"/> recomputes them.</summary>
    public void CopyCountersTo(SalesMatrix copy, long from, int count)
    {
        if (copy.MaxItemId != MaxItemId || copy.Items != Items || copy.MaxStores != MaxStores)
        {
            throw new ArgumentException("The copy must have the same dimensions.", nameof(copy));
        }

        _units.AsSpan(checked((int)from), count).CopyTo(copy._units.AsSpan(checked((int)from), count));
    }

    /// <summary>Adds to <paramref name="copy"/> the lines whose counters are copied already; the others come with
    /// their part.</summary>
    public void RecordSalesCopied(SalesMatrix copy, ReadOnlySpan<SaleLine> lines, long copied)
    {
        foreach (var line in lines)
        {
            if (Holds(line) && line.Quantity >= 0 && CellOf(line.StoreId, line.ItemId) < copied)
            {
                copy._units[CellOf(line.StoreId, line.ItemId)] += line.Quantity;
            }
        }
    }

    /// <summary>The last chunk's counters beyond the matrix are zero.</summary>
    internal void CopyChunk(int chunk, Span<long> units)
    {
        var (first, count) = ChunkCells(chunk);
        _units.AsSpan(first, count).CopyTo(units);
        units[count..].Clear();
    }

    /// <summary>Call it while nothing records. Raising the tiles' maxima suffices: counters only grow.</summary>
    internal void SetChunk(int chunk, ReadOnlySpan<long> units)
    {
        var (first, count) = ChunkCells(chunk);
        for (var cell = first; cell < first + count; cell++)
        {
            _units[cell] = units[cell - first];
            var (item, store) = (Items.First + (cell / MaxStores), (cell % MaxStores) + 1);
            RaiseTo(ref _tileMax[TileMaxOf(store, item)], _units[cell]);
        }
    }

    private (int First, int Count) ChunkCells(int chunk)
    {
        var first = checked(chunk * MatrixDelta.ChunkCounters);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(first, _units.Length, nameof(chunk));
        return (first, Math.Min(MatrixDelta.ChunkCounters, _units.Length - first));
    }

    public void Save(Stream destination)
    {
        using var compressed = new System.IO.Compression.ZLibStream(destination, System.IO.Compression.CompressionLevel.Fastest, leaveOpen: true);
        compressed.Write(System.Runtime.InteropServices.MemoryMarshal.AsBytes(_units.AsSpan()));
    }

    public void Load(Stream source)
    {
        using var compressed = new System.IO.Compression.ZLibStream(source, System.IO.Compression.CompressionMode.Decompress, leaveOpen: true);
        compressed.ReadExactly(System.Runtime.InteropServices.MemoryMarshal.AsBytes(_units.AsSpan()));
        Array.Clear(_tileMax);
        for (var item = Items.First; item <= Items.Last; item++)
        {
            for (var store = 1; store <= MaxStores; store++)
            {
                ref var maximum = ref _tileMax[TileMaxOf(store, item)];
                maximum = Math.Max(maximum, _units[CellOf(store, item)]);
            }
        }
    }

    /// <summary>Stored with a checkpoint, so counters damaged on disk are told from whole ones.</summary>
    public ulong Checksum() => System.IO.Hashing.XxHash3.HashToUInt64(System.Runtime.InteropServices.MemoryMarshal.AsBytes(_units.AsSpan()));

    /// <summary>Call it while nothing records.</summary>
    public void Clear()
    {
        Array.Clear(_units);
        Array.Clear(_tileMax);
    }

    internal bool Holds(SaleLine line) => (uint)(line.StoreId - 1) < (uint)MaxStores && Items.Contains(line.ItemId);

    private bool InCatalog(SaleLine line) => (uint)(line.StoreId - 1) < (uint)MaxStores && (uint)(line.ItemId - 1) < (uint)MaxItemId;

    /// <summary>Returns how many were written.</summary>
    public int TopItemsAtStore(int storeId, Span<RankedSales> best)
    {
        CheckStore(storeId);
        CheckCount(best);
        var maxima = new ReadOnlySpan<long>(_tileMax, (storeId - 1) * _tiles, _tiles);
        var ranking = new AscendingRanking(best);
        var tile = 0;
        if (Vector.IsHardwareAccelerated)
        {
            var width = Vector<long>.Count;
            for (; tile <= maxima.Length - width; tile += width)
            {
                if (Vector.GreaterThanAny(new Vector<long>(maxima.Slice(tile, width)), new Vector<long>(ranking.Threshold)))
                {
                    for (var lane = tile; lane < tile + width; lane++)
                    {
                        OfferTile(storeId, lane, maxima[lane], ref ranking);
                    }
                }
            }
        }

        for (; tile < maxima.Length; tile++)
        {
            OfferTile(storeId, tile, maxima[tile], ref ranking);
        }

        return ranking.Count;
    }

    /// <summary>Returns how many were written.</summary>
    public int TopStoresForItem(int itemId, Span<RankedSales> best)
    {
        CheckItem(itemId);
        CheckCount(best);
        var ranking = new AscendingRanking(best);
        ranking.OfferInOrder(new ReadOnlySpan<long>(_units, CellOf(1, itemId), MaxStores), firstId: 1);
        return ranking.Count;
    }

    private void OfferTile(int storeId, int tile, long tileMax, ref AscendingRanking ranking)
    {
        if (tileMax <= ranking.Threshold)
        {
            return;
        }

        var firstItem = Items.First + (tile << TileShift);
        var lastItem = Math.Min(firstItem + TileWidth - 1, Items.Last);
        for (int item = firstItem, cell = CellOf(storeId, firstItem); item <= lastItem; item++, cell += MaxStores)
        {
            ranking.Offer(item, Volatile.Read(ref _units[cell]));
        }
    }

    internal int CellOf(int storeId, int itemId) => ((itemId - Items.First) * MaxStores) + (storeId - 1);

    private int TileMaxOf(int storeId, int itemId) => ((storeId - 1) * _tiles) + ((itemId - Items.First) >> TileShift);

    private static void RaiseTo(ref long maximum, long value)
    {
        var current = Volatile.Read(ref maximum);
        while (value > current)
        {
            var seen = Interlocked.CompareExchange(ref maximum, value, current);
            if (seen == current)
            {
                return;
            }

            current = seen;
        }
    }

    private void CheckStore(int storeId)
    {
        if ((uint)(storeId - 1) >= (uint)MaxStores)
        {
            throw new ArgumentOutOfRangeException(nameof(storeId), storeId, $"Store ids run from 1 to {MaxStores}.");
        }
    }

    private void CheckItem(int itemId)
    {
        if (!Items.Contains(itemId))
        {
            throw new ArgumentOutOfRangeException(nameof(itemId), itemId, $"This matrix counts items {Items}.");
        }
    }

    private static void CheckCount(Span<RankedSales> best)
    {
        if (best.Length is < 1 or > MaxRankedCount)
        {
            throw new ArgumentOutOfRangeException(nameof(best), best.Length, $"Between 1 and {MaxRankedCount} can be ranked.");
        }
    }
}
