namespace Supermarket.Benchmarks;

/// <summary>
/// The baseline, as seed report 000 built it: a 2-D int array with a row per item and a column per store, a lock
/// per item row, and top-K by a min-heap of size K. Kept only to measure <see cref="Supermarket.SalesCounting.SalesMatrix"/>
/// against.
/// </summary>
public sealed class LockedSalesMatrix(int maxItemId, int maxStores)
{
    private readonly int[,] _units = new int[maxItemId, maxStores];
    private readonly object[] _rowLocks = [.. Enumerable.Range(0, maxItemId).Select(_ => new object())];

    public void Record(int storeId, int itemId, int quantity)
    {
        lock (_rowLocks[itemId - 1])
        {
            _units[itemId - 1, storeId - 1] += quantity;
        }
    }

    /// <summary>Walks the store's column, one locked row at a time.</summary>
    public int TopItemsAtStore(int storeId, Span<(int Id, int Units)> best)
    {
        var heap = new PriorityQueue<int, (int Units, int NegativeId)>(best.Length + 1);
        for (var item = 0; item < maxItemId; item++)
        {
            lock (_rowLocks[item])
            {
                Offer(heap, item + 1, _units[item, storeId - 1], best.Length);
            }
        }

        return Drain(heap, best);
    }

    /// <summary>Walks the item's row under its lock.</summary>
    public int TopStoresForItem(int itemId, Span<(int Id, int Units)> best)
    {
        var heap = new PriorityQueue<int, (int Units, int NegativeId)>(best.Length + 1);
        lock (_rowLocks[itemId - 1])
        {
            for (var store = 0; store < maxStores; store++)
            {
                Offer(heap, store + 1, _units[itemId - 1, store], best.Length);
            }
        }

        return Drain(heap, best);
    }

    // The heap's minimum is the weakest of the K: fewest units, then the highest id.
    private static void Offer(PriorityQueue<int, (int Units, int NegativeId)> heap, int id, int units, int k)
    {
        if (units == 0)
        {
            return;
        }

        heap.Enqueue(id, (units, -id));
        if (heap.Count > k)
        {
            heap.Dequeue();
        }
    }

    private static int Drain(PriorityQueue<int, (int Units, int NegativeId)> heap, Span<(int Id, int Units)> best)
    {
        var count = heap.Count;
        for (var i = count - 1; i >= 0; i--)
        {
            heap.TryDequeue(out var id, out var priority);
            best[i] = (id, priority.Units);
        }

        return count;
    }
}
