using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Supermarket.Contracts.Purchases;
using Supermarket.SalesCounting;

namespace Supermarket.Benchmarks;

/// <summary>
/// <see cref="SalesMatrix"/> against the seeds' lock-per-item-row matrix with a heap, on the full 100000 × 512 matrix
/// after the seeds' A3 day (691,200 purchases of 5 items). Each category's ratio column is new ÷ baseline. Record
/// times are per purchase (5 counter updates).
/// </summary>
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
public class SalesMatrixBenchmarks
{
    private const int PurchasesPerThread = 20_000;
    private const int DayOfPurchases = 691_200;

    private SalesMatrix _matrix = null!;
    private LockedSalesMatrix _locked = null!;
    private (int Store, PurchaseLine[] Lines)[][] _threadPurchases = null!;
    private int _query;

    [GlobalSetup]
    public void Fill()
    {
        _matrix = new SalesMatrix(SalesLoad.MaxItemId, SalesLoad.MaxStores);
        _locked = new LockedSalesMatrix(SalesLoad.MaxItemId, SalesLoad.MaxStores);
        foreach (var (store, lines) in SalesLoad.Purchases(DayOfPurchases, seed: 2021))
        {
            _matrix.RecordPurchase(store, lines);
            _locked.RecordPurchase(store, lines);
        }

        _threadPurchases = [SalesLoad.Purchases(PurchasesPerThread, 1), SalesLoad.Purchases(PurchasesPerThread, 2)];
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = PurchasesPerThread)]
    [BenchmarkCategory("Record a purchase, 1 thread")]
    public void LockPerRow_Record1Thread() => LockPerRow_Record(0);

    [Benchmark(OperationsPerInvoke = PurchasesPerThread)]
    [BenchmarkCategory("Record a purchase, 1 thread")]
    public void SalesMatrix_Record1Thread() => SalesMatrix_Record(0);

    [Benchmark(Baseline = true, OperationsPerInvoke = 2 * PurchasesPerThread)]
    [BenchmarkCategory("Record a purchase, 2 threads")]
    public void LockPerRow_Record2Threads() => Parallel.For(0, 2, LockPerRow_Record);

    [Benchmark(OperationsPerInvoke = 2 * PurchasesPerThread)]
    [BenchmarkCategory("Record a purchase, 2 threads")]
    public void SalesMatrix_Record2Threads() => Parallel.For(0, 2, SalesMatrix_Record);

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

    private void LockPerRow_Record(int thread)
    {
        foreach (var (store, lines) in _threadPurchases[thread])
        {
            _locked.RecordPurchase(store, lines);
        }
    }

    private void SalesMatrix_Record(int thread)
    {
        foreach (var (store, lines) in _threadPurchases[thread])
        {
            _matrix.RecordPurchase(store, lines);
        }
    }

    // Walks the ids with a stride coprime to their count, so consecutive queries touch different rows and columns.
    private int NextId(int max) => (_query = (_query + 7919) % max) + 1;
}
