using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;
using Supermarket.SalesCounting;

namespace Supermarket.Benchmarks;

/// <summary>
/// <see cref="SalesMatrix"/> as the Sales aggregator runs it, against the seeds' lock-per-item-row matrix with a heap,
/// on the full 100000 × 512 matrix after the seeds' A3 day (691,200 purchases of 5 items):
/// <list type="bullet">
/// <item>counting: ledger entries as the writer stores them (one per group of purchases), each decoded and recorded
/// with <see cref="SalesMatrix.RecordSales"/> on one thread, as the ledger feed does (SalesLedgerFeed.Apply), and
/// the same while a checkpoint is copied, when the feed also adds each entry to the copied part
/// (<see cref="SalesMatrix.RecordSalesCopied"/>);</item>
/// <item>the two questions, as the questions' consumer asks them;</item>
/// <item>a checkpoint's copy: the part a question can wait for now (<see cref="SalesMatrix.CountersPerCopyPart"/>)
/// against the whole matrix it waited for before.</item>
/// </list>
/// Each category's ratio column is new ÷ baseline; counting times are per purchase.
/// </summary>
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
public class SalesMatrixBenchmarks
{
    private const int DayOfPurchases = 691_200;
    private const int CountedPurchases = SalesLoad.EntriesCounted * SalesLoad.PurchasesPerEntry;

    private SalesMatrix _matrix = null!;
    private SalesMatrix _copy = null!;
    private LockedSalesMatrix _locked = null!;
    private byte[][] _entries = null!;
    private readonly List<SaleLine> _lines = [];
    private int _query;
    private long _copied;

    [GlobalSetup]
    public void Fill()
    {
        _matrix = new SalesMatrix(SalesLoad.MaxItemId, SalesLoad.MaxStores, new ItemRange(1, SalesLoad.MaxItemId));
        _copy = new SalesMatrix(SalesLoad.MaxItemId, SalesLoad.MaxStores, new ItemRange(1, SalesLoad.MaxItemId));
        _locked = new LockedSalesMatrix(SalesLoad.MaxItemId, SalesLoad.MaxStores);
        foreach (var entry in SalesLoad.LedgerEntries(DayOfPurchases / SalesLoad.PurchasesPerEntry, seed: 2021))
        {
            CountEntry(entry);
            LockPerRow_CountEntry(entry);
        }

        _entries = SalesLoad.LedgerEntries(SalesLoad.EntriesCounted, seed: 1);
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = CountedPurchases)]
    [BenchmarkCategory("Count a purchase from the ledger")]
    public void LockPerRow_Count()
    {
        foreach (var entry in _entries)
        {
            LockPerRow_CountEntry(entry);
        }
    }

    [Benchmark(OperationsPerInvoke = CountedPurchases)]
    [BenchmarkCategory("Count a purchase from the ledger")]
    public void SalesMatrix_Count()
    {
        foreach (var entry in _entries)
        {
            CountEntry(entry);
        }
    }

    /// <summary>Halfway through a checkpoint's copy: half of the lines land in the copied part and are added to the
    /// copy as well.</summary>
    [Benchmark(OperationsPerInvoke = CountedPurchases)]
    [BenchmarkCategory("Count a purchase from the ledger")]
    public void SalesMatrix_CountWhileCopying()
    {
        foreach (var entry in _entries)
        {
            CountEntry(entry);
            _matrix.RecordSalesCopied(_copy, CollectionsMarshal.AsSpan(_lines), _matrix.Counters / 2);
        }
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Top 10 items at a store")]
    public int LockPerRowHeap_TopItems()
    {
        Span<(int, int)> best = stackalloc (int, int)[10];
        return _locked.TopItemsAtStore(NextId(SalesLoad.MaxStores), best);
    }

    [Benchmark]
    [BenchmarkCategory("Top 10 items at a store")]
    public int SalesMatrix_TopItems()
    {
        Span<RankedSales> best = stackalloc RankedSales[10];
        return _matrix.TopItemsAtStore(NextId(SalesLoad.MaxStores), best);
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Top 5 stores for an item")]
    public int LockPerRowHeap_TopStores()
    {
        Span<(int, int)> best = stackalloc (int, int)[5];
        return _locked.TopStoresForItem(NextId(SalesLoad.MaxItemId), best);
    }

    [Benchmark]
    [BenchmarkCategory("Top 5 stores for an item")]
    public int SalesMatrix_TopStores()
    {
        Span<RankedSales> best = stackalloc RankedSales[5];
        return _matrix.TopStoresForItem(NextId(SalesLoad.MaxItemId), best);
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("A checkpoint's copy, as long as a question waits for it")]
    public void SalesMatrix_CopyWhole() => _matrix.CopyTo(_copy);

    [Benchmark]
    [BenchmarkCategory("A checkpoint's copy, as long as a question waits for it")]
    public void SalesMatrix_CopyPart()
    {
        var count = (int)Math.Min(SalesMatrix.CountersPerCopyPart, _matrix.Counters - _copied);
        _matrix.CopyCountersTo(_copy, _copied, count);
        _copied = (_copied + count) % _matrix.Counters;
    }

    /// <summary>What the ledger feed does with one entry.</summary>
    private void CountEntry(byte[] entry)
    {
        _lines.Clear();
        SalesLedgerEntry.Decode(entry, _lines);
        _matrix.RecordSales(CollectionsMarshal.AsSpan(_lines));
    }

    /// <summary>The same entry into the seeds' matrix: decoded alike, each line under its item row's lock.</summary>
    private void LockPerRow_CountEntry(byte[] entry)
    {
        _lines.Clear();
        SalesLedgerEntry.Decode(entry, _lines);
        foreach (var line in _lines)
        {
            _locked.Record(line.StoreId, line.ItemId, (int)line.Quantity);
        }
    }

    // Walks the ids with a stride coprime to their count, so consecutive queries touch different rows and columns.
    private int NextId(int max) => (_query = (_query + 7919) % max) + 1;
}
