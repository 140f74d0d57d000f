using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Ledger;
using Supermarket.SalesCounting;

namespace Supermarket.Benchmarks;

/// <summary>
/// <see cref="SalesByDay"/>'s two questions over the last 1, 7, 31 and <see cref="DaysGenerated"/> days, against the
/// all-time question of a <see cref="SalesMatrix"/> that counted the same sales, at 256 stores × 100,000 items after
/// <see cref="DaysGenerated"/> days of the seeds' sales (691,200 purchases a day of 5 random items at a random store).
/// Each category's ratio column is the range's time ÷ the all-time question's, for the same number of days generated.
/// </summary>
/// <remarks>
/// Generating the days takes ~1.3 s and ~44 MB a day (a year: 8 minutes and 16 GB); the sales are built once per
/// process, so run it with <c>--inProcess</c> to build them once for every case.
/// </remarks>
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
public class SalesByDayBenchmarks
{
    /// <summary>A quarter, not a year: a year of these sales holds 16 GB, more than this shared box can spare.</summary>
    public const int DaysGenerated = 92;

    private const int Stores = 256;
    private const int PurchasesADay = 691_200;
    private static readonly DateOnly FirstDay = new(2026, 1, 1);
    private static readonly Lazy<(SalesByDay ByDay, SalesMatrix AllTime)> Generated = new(Generate);

    private SalesByDay _byDay = null!;
    private SalesMatrix _allTime = null!;
    private DateOnly _from;
    private DateOnly _to;
    private int _query;

    /// <summary>The range asked: the last so many days generated.</summary>
    [Params(1, 7, 31, DaysGenerated)]
    public int Days { get; set; }

    [GlobalSetup]
    public void Fill()
    {
        (_byDay, _allTime) = Generated.Value;
        _to = FirstDay.AddDays(DaysGenerated - 1);
        _from = _to.AddDays(1 - Days);
        Console.WriteLine($"// {DaysGenerated} days, {Stores} stores: SalesByDay holds {_byDay.Bytes:N0} bytes ({_byDay.Bytes / DaysGenerated:N0} a day).");
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Top 10 items at a store")]
    public int SalesMatrix_TopItems_AllTime()
    {
        Span<RankedSales> best = stackalloc RankedSales[10];
        return _allTime.TopItemsAtStore(NextId(Stores), best);
    }

    [Benchmark]
    [BenchmarkCategory("Top 10 items at a store")]
    public int SalesByDay_TopItems()
    {
        Span<RankedSales> best = stackalloc RankedSales[10];
        return _byDay.TopItemsAtStore(NextId(Stores), _from, _to, best);
    }

    [Benchmark(Baseline = true)]
    [BenchmarkCategory("Top 5 stores for an item")]
    public int SalesMatrix_TopStores_AllTime()
    {
        Span<RankedSales> best = stackalloc RankedSales[5];
        return _allTime.TopStoresForItem(NextId(SalesLoad.MaxItemId), best);
    }

    [Benchmark]
    [BenchmarkCategory("Top 5 stores for an item")]
    public int SalesByDay_TopStores()
    {
        Span<RankedSales> best = stackalloc RankedSales[5];
        return _byDay.TopStoresForItem(NextId(SalesLoad.MaxItemId), _from, _to, best);
    }

    /// <summary>The seeds' days, grouped into ledger entries' worth of lines, recorded into both.</summary>
    private static (SalesByDay, SalesMatrix) Generate()
    {
        var items = new ItemRange(1, SalesLoad.MaxItemId);
        var byDay = new SalesByDay(Stores, items, daysKept: 400);
        var allTime = new SalesMatrix(SalesLoad.MaxItemId, Stores, items);
        var random = new Random(2021);
        var lines = new SaleLine[SalesLoad.PurchasesPerEntry * SalesLoad.ItemsPerPurchase];
        for (var d = 0; d < DaysGenerated; d++)
        {
            var day = FirstDay.AddDays(d);
            for (var entry = 0; entry < PurchasesADay / SalesLoad.PurchasesPerEntry; entry++)
            {
                for (var p = 0; p < SalesLoad.PurchasesPerEntry; p++)
                {
                    var store = random.Next(1, Stores + 1);
                    for (var i = 0; i < SalesLoad.ItemsPerPurchase; i++)
                    {
                        lines[(p * SalesLoad.ItemsPerPurchase) + i] = new SaleLine(store, random.Next(1, SalesLoad.MaxItemId + 1), 1, day);
                    }
                }

                byDay.RecordSales(lines);
                allTime.RecordSales(lines);
            }
        }

        return (byDay, allTime);
    }

    // Walks the ids with a stride coprime to their count, so consecutive queries touch different rows and columns.
    private int NextId(int max) => (_query = (_query + 7919) % max) + 1;
}
