using System.Numerics;
using System.Runtime.Intrinsics.X86;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;

namespace Supermarket.SalesCounting;

/// <summary>
/// Units sold per (item, store), updated lock-free from any number of threads and ranked exactly on demand: of every
/// item of the catalog, or of one shard's range of them (<see cref="Items"/>; SalesShardOptions).
/// </summary>
/// <remarks>
/// Layout, chosen by measurement (benchmarks/Supermarket.Benchmarks, docs/performance.md; the layouts tried are in its history,
/// git show 0a04341:docs/performance.md, "How the layout was chosen"):
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

    /// <summary>A matrix of the catalog's <paramref name="items"/> (all of them, <c>new ItemRange(1, maxItemId)</c>,
    /// when the aggregator is not sharded): sales of its other items are another shard's, and are passed over.</summary>
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

    /// <summary>The catalog's largest item id: a sale of an item above it is no shard's, and is left out.</summary>
    public int MaxItemId { get; }

    /// <summary>The items this matrix counts and ranks.</summary>
    public ItemRange Items { get; }

    /// <summary>The counters a matrix of this many items and stores holds.</summary>
    public static long CellsFor(int items, int maxStores) => (long)items * maxStores;

    /// <summary>The memory a matrix of this many items and stores takes: its counters and its tiles' maxima.</summary>
    public static long BytesFor(int items, int maxStores) =>
        (CellsFor(items, maxStores) + ((long)((items + TileWidth - 1) / TileWidth) * maxStores)) * sizeof(long);

    public int MaxStores { get; }

    /// <summary>Adds lines of any stores, as the sales ledger records them, and passes over those of items another
    /// shard counts; a line outside the catalog (its store or item beyond the bounds, a negative quantity) is left out
    /// (the caller reports it). Returns how many lines were left out.</summary>
    /// <remarks>
    /// Each counter is a random cell of a 390 MiB array, so each add is a cache miss, and a locked add waits for its
    /// own miss before the next can start. Prefetching every cell the lines touch first lets the misses overlap; the
    /// hint changes no result.
    /// </remarks>
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

    /// <summary>Makes <paramref name="copy"/> hold the same counts, so it can be saved while this one goes on
    /// counting. Call it while nothing records into this matrix (a copy taken mid-update would be torn).</summary>
    public void CopyTo(SalesMatrix copy)
    {
        if (copy.MaxItemId != MaxItemId || copy.Items != Items || copy.MaxStores != MaxStores)
        {
            throw new ArgumentException("The copy must have the same dimensions.", nameof(copy));
        }

        _units.AsSpan().CopyTo(copy._units);
        _tileMax.AsSpan().CopyTo(copy._tileMax);
    }

    /// <summary>How many counters a checkpoint's copy takes at a time (<see cref="CopyCountersTo"/>), between two reads
    /// of the ledger: 16 MB, a few milliseconds, so a question waiting for the next read waits that long at most for a
    /// checkpoint (#55), where the whole copy (hundreds of MB) held it up for as long.</summary>
    public const int CountersPerCopyPart = 1 << 21;

    /// <summary>How many counters this matrix holds: what <see cref="CopyCountersTo"/> copies a part of at a time.</summary>
    public long Counters => _units.LongLength;

    /// <summary>
    /// Copies the counters from <paramref name="from"/> on, <paramref name="count"/> of them, into <paramref name="copy"/>:
    /// a copy taken a part at a time, between recordings, so that no part of it holds up whoever waits for the recording
    /// thread (a checkpoint's, #55). Sales recorded after a part was copied reach that part through
    /// <see cref="RecordSalesCopied"/>; once every part is copied the copy's counters equal these. Its tile maxima are
    /// left as they are: a copy is for <see cref="Save"/>, and <see cref="Load"/> recomputes them.
    /// </summary>
    public void CopyCountersTo(SalesMatrix copy, long from, int count)
    {
        if (copy.MaxItemId != MaxItemId || copy.Items != Items || copy.MaxStores != MaxStores)
        {
            throw new ArgumentException("The copy must have the same dimensions.", nameof(copy));
        }

        _units.AsSpan(checked((int)from), count).CopyTo(copy._units.AsSpan(checked((int)from), count));
    }

    /// <summary>Adds to <paramref name="copy"/> the lines, of those just recorded here, whose counters are among the first
    /// <paramref name="copied"/> (those <see cref="CopyCountersTo"/> copied already); the others reach it when their part
    /// is copied. Lines outside this matrix are skipped, as <see cref="RecordSales"/> skips them.</summary>
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

    /// <summary>Copies the counters of <paramref name="chunk"/> (<see cref="MatrixDelta.ChunkCounters"/> from
    /// chunk × that on) into <paramref name="units"/>; the last chunk's counters beyond the matrix are zero.</summary>
    internal void CopyChunk(int chunk, Span<long> units)
    {
        var (first, count) = ChunkCells(chunk);
        _units.AsSpan(first, count).CopyTo(units);
        units[count..].Clear();
    }

    /// <summary>Sets the counters of <paramref name="chunk"/> to <paramref name="units"/> and raises their tiles'
    /// maxima to them (counters only grow: a chunk's counters are never below those they replace). Call it while
    /// nothing records.</summary>
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
        for (var item = Items.First; item <= Items.Last; item++)
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

    /// <summary>Whether this matrix counts the line's sales (its store's, of an item of its range).</summary>
    internal bool Holds(SaleLine line) => (uint)(line.StoreId - 1) < (uint)MaxStores && Items.Contains(line.ItemId);

    private bool InCatalog(SaleLine line) => (uint)(line.StoreId - 1) < (uint)MaxStores && (uint)(line.ItemId - 1) < (uint)MaxItemId;

    /// <summary>Writes the best-selling items at <paramref name="storeId"/> into <paramref name="best"/>, most units
    /// first, ties by the lower item id, items with no sales left out. Returns how many were written.</summary>
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

    /// <summary>Writes the stores that sold the most of <paramref name="itemId"/> into <paramref name="best"/>, most
    /// units first, ties by the lower store id, stores with no sales left out. Returns how many were written.</summary>
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
