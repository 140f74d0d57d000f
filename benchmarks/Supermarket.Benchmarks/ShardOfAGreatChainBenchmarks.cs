using BenchmarkDotNet.Attributes;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.SalesCounting;

namespace Supermarket.Benchmarks;

/// <summary>
/// One shard of four of a 4,000-store chain (items 1-25,000 of 100,000), each store selling as the seeds' store does
/// (2,700 purchases a day of 5 random items of the catalog: 13.5 million lines a shard-day), after
/// <see cref="DaysGenerated"/> days: the memory a shard's <see cref="SalesByDay"/> holds (printed by the setup, for an
/// old day and for one of the latest) and a week of both questions on it.
/// </summary>
/// <remarks>A hundred days are enough for old days in blocks beside the latest ones; 400 days take the same two sizes
/// a day, and about four times as long to record.</remarks>
[Config(typeof(SalesByDayBenchmarks.InOneProcess))]
[MemoryDiagnoser]
public class ShardOfAGreatChainBenchmarks
{
    private const int DaysGenerated = 100;
    private const int Stores = 4_000;
    private const int ShardItems = 25_000;
    private const int PurchasesAStoreADay = 2_700;
    private static readonly DateOnly FirstDay = new(2026, 1, 1);
    private static readonly Lazy<SalesByDay> Generated = new(Generate);

    private SalesByDay _byDay = null!;
    private DateOnly _from;
    private DateOnly _to;
    private int _query;

    [GlobalSetup]
    public void Fill()
    {
        _byDay = Generated.Value;
        _to = FirstDay.AddDays(DaysGenerated - 1);
        _from = _to.AddDays(-6);
    }

    [Benchmark]
    public int TopItemsAtStore_Week()
    {
        Span<RankedSales> best = stackalloc RankedSales[10];
        return _byDay.TopItemsAtStore(NextId(Stores), _from, _to, best);
    }

    [Benchmark]
    public int TopStoresForItem_Week()
    {
        Span<RankedSales> best = stackalloc RankedSales[5];
        return _byDay.TopStoresForItem(NextId(ShardItems), _from, _to, best);
    }

    private static SalesByDay Generate()
    {
        var byDay = new SalesByDay(Stores, new ItemRange(1, ShardItems), daysKept: 400);
        var random = new Random(2021);
        var lines = new List<SaleLine>(PurchasesAStoreADay * SalesLoad.ItemsPerPurchase);
        var watch = System.Diagnostics.Stopwatch.StartNew();
        for (var d = 0; d < DaysGenerated; d++)
        {
            var day = FirstDay.AddDays(d);
            for (var store = 1; store <= Stores; store++)
            {
                lines.Clear();
                for (var i = 0; i < PurchasesAStoreADay * SalesLoad.ItemsPerPurchase; i++)
                {
                    // The catalog's items; the shard counts its quarter of them.
                    if (random.Next(1, SalesLoad.MaxItemId + 1) is var item && item <= ShardItems)
                    {
                        lines.Add(new SaleLine(store, item, 1, day));
                    }
                }

                byDay.RecordSales(System.Runtime.InteropServices.CollectionsMarshal.AsSpan(lines));
            }

            // Every ten days: the growth between two prints is ten of the latest days, and a drop the 32 days that
            // joined a block (docs/performance.md, "Sales by day", reads an old day's bytes from them).
            if ((d + 1) % 10 == 0)
            {
                Console.WriteLine($"// A 4,000-store chain's shard of 25,000 items after {d + 1} days ({watch.Elapsed.TotalSeconds:N0} s): SalesByDay holds {byDay.Bytes:N0} bytes.");
            }
        }

        return byDay;
    }

    // Walks the ids with a stride coprime to their count, so consecutive queries touch different rows and columns.
    private int NextId(int max) => (_query = (_query + 7919) % max) + 1;
}
