using System.Numerics;
using System.Runtime.Intrinsics.X86;
using Supermarket.Contracts.Ledger;
using Supermarket.Contracts.Purchases;

namespace Supermarket.SalesCounting;

/// <summary>
/// Units sold per (item, store), updated lock-free from any number of threads and ranked exactly on demand.
/// </summary>
/// <remarks>
/// Layout, chosen by measurement (docs/performance.md, benchmarks/Supermarket.Benchmarks):
/// <list type="bullet">
/// <item>The counters are item-major: one item's counters of every store are consecutive (4 KB for 512 stores).
/// "Top stores for an item" streams that row and compares a vector of counters at a time against the current K-th
/// best: 64 cache lines, where counters tiled for the other question made it read 256 and no faster than the seeds'
/// lock per row and heap.</item>
/// <item>Beside them, the largest counter of every tile of <see cref="TileWidth"/> consecutive items is kept per
/// store, store-major. "Top items at a store" scans that row of tile maxima with SIMD against the current K-th best
/// and opens only the tiles that could beat it (a cache miss per item in it), instead of reading the store's
/// counters 4 KB apart.</item>
/// </list>
/// Counters only grow, so a tile's maximum only grows: it is raised with a compare-and-swap after each add and lags
/// by at most an update in flight. Every ranking is exact; ids are visited in ascending order, so a candidate that
/// only ties the K-th best loses to the lower id already ranked.
/// </remarks>
public sealed class SalesMatrix
{
    public const int MaxRankedCount = 100;

    /// <summary>Items per tile of the stores' maxima: wider tiles make each store's row of maxima shorter to scan and
    /// each tile opened dearer.</summary>
    private const int TileWidth = 8;
    private const int TileShift = 3;

    private readonly int _tiles;
    private readonly long[] _units;
    private readonly long[] _tileMax;

    public SalesMatrix(int maxItemId, int maxStores)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxItemId, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxStores, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(CellsFor(maxItemId, maxStores), Array.MaxLength, nameof(maxItemId));
        MaxItemId = maxItemId;
        MaxStores = maxStores;
        _tiles = (maxItemId + TileWidth - 1) / TileWidth;
        _units = new long[(long)maxItemId * maxStores];
        _tileMax = new long[(long)_tiles * maxStores];
    }

    public int MaxItemId { get; }

    /// <summary>The counters a matrix of these bounds holds.</summary>
    public static long CellsFor(int maxItemId, int maxStores) => (long)maxItemId * maxStores;

    /// <summary>The memory a matrix of these bounds takes: its counters and its tiles' maxima.</summary>
    public static long BytesFor(int maxItemId, int maxStores) =>
        (CellsFor(maxItemId, maxStores) + ((long)((maxItemId + TileWidth - 1) / TileWidth) * maxStores)) * sizeof(long);

    public int MaxStores { get; }

    public void Record(int storeId, int itemId, int quantity) => RecordPurchase(storeId, [new PurchaseLine(itemId, quantity)]);

    /// <summary>Adds every line of one purchase at <paramref name="storeId"/>; refuses the whole purchase if any line
    /// is out of range.</summary>
    /// <remarks>
    /// Each counter is a random cell of a 390 MiB array, so each add is a cache miss, and a locked add waits for its
    /// own miss before the next can start. Prefetching every cell the purchase touches first lets the misses overlap;
    /// the hint changes no result.
    /// </remarks>
    public unsafe void RecordPurchase(int storeId, ReadOnlySpan<PurchaseLine> lines)
    {
        CheckStore(storeId);
        foreach (var line in lines)
        {
            CheckItem(line.ItemId);
            ArgumentOutOfRangeException.ThrowIfNegative(line.Quantity, nameof(lines));
        }

        if (Sse.IsSupported)
        {
            fixed (long* units = _units, tileMax = _tileMax)
            {
                foreach (var line in lines)
                {
                    Sse.Prefetch0(units + CellOf(storeId, line.ItemId));
                    Sse.Prefetch0(tileMax + TileMaxOf(storeId, line.ItemId));
                }
            }
        }

        foreach (var line in lines)
        {
            var total = Interlocked.Add(ref _units[CellOf(storeId, line.ItemId)], line.Quantity);
            RaiseTo(ref _tileMax[TileMaxOf(storeId, line.ItemId)], total);
        }
    }

    /// <summary>Adds lines of any stores, as the sales ledger records them; a line outside the matrix is left out
    /// (the caller reports it). Returns how many lines were left out.</summary>
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
            if (!Holds(line) || line.Quantity < 0)
            {
                outside++;
                continue;
            }

            var total = Interlocked.Add(ref _units[CellOf(line.StoreId, line.ItemId)], line.Quantity);
            RaiseTo(ref _tileMax[TileMaxOf(line.StoreId, line.ItemId)], total);
        }

        return outside;
    }

    /// <summary>Makes <paramref name="copy"/> hold the same counts, so it can be saved while this one goes on
    /// counting. Call it while nothing records into this matrix (a copy taken mid-update would be torn).</summary>
    public void CopyTo(SalesMatrix copy)
    {
        if (copy.MaxItemId != MaxItemId || copy.MaxStores != MaxStores)
        {
            throw new ArgumentException("The copy must have the same dimensions.", nameof(copy));
        }

        _units.AsSpan().CopyTo(copy._units);
        _tileMax.AsSpan().CopyTo(copy._tileMax);
    }

    /// <summary>Writes the counters, compressed; <see cref="Load"/> reads them back into a matrix of the same size.</summary>
    public void Save(Stream destination)
    {
        using var compressed = new System.IO.Compression.ZLibStream(destination, System.IO.Compression.CompressionLevel.Fastest, leaveOpen: true);
        compressed.Write(System.Runtime.InteropServices.MemoryMarshal.AsBytes(_units.AsSpan()));
    }

    /// <summary>Replaces every counter with those <see cref="Save"/> wrote, and recomputes the tile maxima.</summary>
    public void Load(Stream source)
    {
        using var compressed = new System.IO.Compression.ZLibStream(source, System.IO.Compression.CompressionMode.Decompress, leaveOpen: true);
        compressed.ReadExactly(System.Runtime.InteropServices.MemoryMarshal.AsBytes(_units.AsSpan()));
        Array.Clear(_tileMax);
        for (var item = 1; item <= MaxItemId; item++)
        {
            for (var store = 1; store <= MaxStores; store++)
            {
                ref var maximum = ref _tileMax[TileMaxOf(store, item)];
                maximum = Math.Max(maximum, _units[CellOf(store, item)]);
            }
        }
    }

    /// <summary>A 64-bit hash of every counter (XxHash3): a checkpoint stores it, so a file whose counters were damaged
    /// on disk is told from a whole one.</summary>
    public ulong Checksum() => System.IO.Hashing.XxHash3.HashToUInt64(System.Runtime.InteropServices.MemoryMarshal.AsBytes(_units.AsSpan()));

    /// <summary>Sets every counter back to zero. Call it while nothing records.</summary>
    public void Clear()
    {
        Array.Clear(_units);
        Array.Clear(_tileMax);
    }

    public bool Holds(int storeId, int itemId) => (uint)(storeId - 1) < (uint)MaxStores && (uint)(itemId - 1) < (uint)MaxItemId;

    private bool Holds(SaleLine line) => Holds(line.StoreId, line.ItemId);

    public long UnitsSold(int storeId, int itemId)
    {
        CheckStore(storeId);
        CheckItem(itemId);
        return Volatile.Read(ref _units[CellOf(storeId, itemId)]);
    }

    /// <summary>Writes the best-selling items at <paramref name="storeId"/> into <paramref name="best"/>, most units
    /// first, ties by the lower item id, items with no sales left out. Returns how many were written.</summary>
    public int TopItemsAtStore(int storeId, Span<RankedSales> best)
    {
        CheckStore(storeId);
        CheckCount(best);
        var maxima = new ReadOnlySpan<long>(_tileMax, (storeId - 1) * _tiles, _tiles);
        var ranking = new Ranking(best);
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

    /// <summary>Writes the stores that sold the most of <paramref name="itemId"/> into <paramref name="best"/>, most
    /// units first, ties by the lower store id, stores with no sales left out. Returns how many were written.</summary>
    public int TopStoresForItem(int itemId, Span<RankedSales> best)
    {
        CheckItem(itemId);
        CheckCount(best);
        var row = new ReadOnlySpan<long>(_units, CellOf(1, itemId), MaxStores);
        var ranking = new Ranking(best);
        var store = 0;
        if (Vector.IsHardwareAccelerated)
        {
            var width = Vector<long>.Count;
            for (; store <= row.Length - width; store += width)
            {
                if (Vector.GreaterThanAny(new Vector<long>(row.Slice(store, width)), new Vector<long>(ranking.Threshold)))
                {
                    for (var lane = store; lane < store + width; lane++)
                    {
                        ranking.Offer(lane + 1, Volatile.Read(in row[lane]));
                    }
                }
            }
        }

        for (; store < row.Length; store++)
        {
            ranking.Offer(store + 1, Volatile.Read(in row[store]));
        }

        return ranking.Count;
    }

    private void OfferTile(int storeId, int tile, long tileMax, ref Ranking ranking)
    {
        if (tileMax <= ranking.Threshold)
        {
            return;
        }

        var firstItem = (tile << TileShift) + 1;
        var lastItem = Math.Min(firstItem + TileWidth - 1, MaxItemId);
        for (int item = firstItem, cell = CellOf(storeId, firstItem); item <= lastItem; item++, cell += MaxStores)
        {
            ranking.Offer(item, Volatile.Read(ref _units[cell]));
        }
    }

    private int CellOf(int storeId, int itemId) => ((itemId - 1) * MaxStores) + (storeId - 1);

    private int TileMaxOf(int storeId, int itemId) => ((storeId - 1) * _tiles) + ((itemId - 1) >> TileShift);

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
        if ((uint)(itemId - 1) >= (uint)MaxItemId)
        {
            throw new ArgumentOutOfRangeException(nameof(itemId), itemId, $"Item ids run from 1 to {MaxItemId}.");
        }
    }

    private static void CheckCount(Span<RankedSales> best)
    {
        if (best.Length is < 1 or > MaxRankedCount)
        {
            throw new ArgumentOutOfRangeException(nameof(best), best.Length, $"Between 1 and {MaxRankedCount} can be ranked.");
        }
    }

    /// <summary>The K best seen so far, kept sorted. Candidates arrive in ascending id order, so a candidate
    /// that only ties the K-th best loses the tie and is never inserted.</summary>
    private ref struct Ranking(Span<RankedSales> best)
    {
        private readonly Span<RankedSales> _best = best;

        public int Count { get; private set; }

        /// <summary>A candidate must sell more than this to enter; zero until the ranking is full.</summary>
        public readonly long Threshold => Count < _best.Length ? 0 : _best[^1].Units;

        public void Offer(int id, long units)
        {
            if (units <= Threshold)
            {
                return;
            }

            var position = Count < _best.Length ? Count++ : _best.Length - 1;
            while (position > 0 && _best[position - 1].Units < units)
            {
                _best[position] = _best[position - 1];
                position--;
            }

            _best[position] = new RankedSales(id, units);
        }
    }
}
