using System.Numerics;

namespace Supermarket.Sales;

/// <summary>
/// Units sold per (item, store), updated lock-free from any number of threads and ranked exactly on demand.
/// </summary>
/// <remarks>
/// Layout: one flat array, store-major, so each store's counters for items 1..MaxItemId are contiguous.
/// "Top items at a store" is then a sequential scan of one 400 KB row that the CPU prefetches and that
/// SIMD compares 8 counters at a time against the current K-th best, touching the ranking only for the rare
/// counter that beats it. "Top stores for an item" walks one column: MaxStores (512) independent strided loads,
/// which the CPU overlaps, so it stays cheap without keeping a second, item-major copy that every update
/// would have to write twice. benchmarks/Supermarket.Benchmarks measures both against a lock-per-row matrix
/// with a heap (the seeds' design).
/// </remarks>
public sealed class SalesMatrix
{
    public const int MaxRankedCount = 100;

    private readonly int[] _units;

    public SalesMatrix(int maxItemId, int maxStores)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxItemId, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxStores, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan((long)maxItemId * maxStores, Array.MaxLength);
        MaxItemId = maxItemId;
        MaxStores = maxStores;
        _units = new int[maxItemId * maxStores];
    }

    public int MaxItemId { get; }

    public int MaxStores { get; }

    public void Record(int storeId, int itemId, int quantity)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(quantity);
        Interlocked.Add(ref _units[IndexOf(storeId, itemId)], quantity);
    }

    public int UnitsSold(int storeId, int itemId) => Volatile.Read(ref _units[IndexOf(storeId, itemId)]);

    /// <summary>Writes the best-selling items at <paramref name="storeId"/> into <paramref name="best"/>, most units
    /// first, ties by the lower item id, items with no sales left out. Returns how many were written.</summary>
    public int TopItemsAtStore(int storeId, Span<RankedSales> best)
    {
        CheckStore(storeId);
        CheckCount(best);
        var row = new ReadOnlySpan<int>(_units, (storeId - 1) * MaxItemId, MaxItemId);
        var ranking = new Ranking(best);
        var i = 0;
        if (Vector.IsHardwareAccelerated)
        {
            var width = Vector<int>.Count;
            var threshold = new Vector<int>(ranking.Threshold);
            for (; i <= row.Length - width; i += width)
            {
                if (!Vector.GreaterThanAny(new Vector<int>(row.Slice(i, width)), threshold))
                {
                    continue;
                }

                for (var lane = i; lane < i + width; lane++)
                {
                    ranking.Offer(lane + 1, row[lane]);
                }

                threshold = new Vector<int>(ranking.Threshold);
            }
        }

        for (; i < row.Length; i++)
        {
            ranking.Offer(i + 1, row[i]);
        }

        return ranking.Count;
    }

    /// <summary>Writes the stores that sold the most of <paramref name="itemId"/> into <paramref name="best"/>, most
    /// units first, ties by the lower store id, stores with no sales left out. Returns how many were written.</summary>
    public int TopStoresForItem(int itemId, Span<RankedSales> best)
    {
        CheckItem(itemId);
        CheckCount(best);
        var ranking = new Ranking(best);
        for (int store = 0, index = itemId - 1; store < MaxStores; store++, index += MaxItemId)
        {
            ranking.Offer(store + 1, Volatile.Read(ref _units[index]));
        }

        return ranking.Count;
    }

    private int IndexOf(int storeId, int itemId)
    {
        CheckStore(storeId);
        CheckItem(itemId);
        return (storeId - 1) * MaxItemId + (itemId - 1);
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
        public readonly int Threshold => Count < _best.Length ? 0 : _best[^1].Units;

        public void Offer(int id, int units)
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
