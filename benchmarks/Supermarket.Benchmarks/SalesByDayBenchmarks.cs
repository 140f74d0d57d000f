using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.SalesCounting;

namespace Supermarket.Benchmarks;

/// <summary>
/// <see cref="SalesByDay"/>'s two questions over the last 1, 7, 31 and <see cref="Year"/> days, against the
/// all-time question of a <see cref="SalesMatrix"/> that counted the same sales, at 256 stores × 100,000 items after
/// <see cref="DaysGenerated"/> days of the seeds' sales (691,200 purchases a day of 5 random items at a random store).
/// Each category's ratio column is the range's time ÷ the all-time question's, for the same number of days generated.
/// </summary>
/// <remarks>
/// The days are recorded as the aggregator records them (packed once their tables pass
/// <see cref="SalesByDay.DefaultUnsealedBytesLimit"/>, the last day or two left in tables). Generating a year takes
/// minutes, so every case runs in this one process (<see cref="InOneProcess"/>), which builds the sales once.
/// </remarks>
[Config(typeof(InOneProcess))]
[MemoryDiagnoser]
[CategoriesColumn]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
public class SalesByDayBenchmarks
{
    /// <summary>The days an aggregator keeps by default (<c>Aggregator:DaysKept</c>), so the memory is theirs.</summary>
    public const int DaysGenerated = 400;

    /// <summary>A year: the longest range asked.</summary>
    private const int Year = 365;

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
    [Params(1, 7, 31, Year)]
    public int Days { get; set; }

    [GlobalSetup]
    public void Fill()
    {
        (_byDay, _allTime) = Generated.Value;
        _to = FirstDay.AddDays(DaysGenerated - 1);
        _from = _to.AddDays(1 - Days);
        Console.WriteLine($"// {DaysGenerated} days, {Stores} stores: SalesByDay holds {_byDay.Bytes:N0} bytes ({_byDay.Bytes / DaysGenerated:N0} a day); the process {GC.GetTotalMemory(forceFullCollection: true):N0} bytes.");
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

    /// <summary>The seeds' days, recorded into both a store at a time (the same sales as one purchase at a time at
    /// random stores, in an order that keeps each store's table in the cache, so a year is recorded in minutes).</summary>
    private static (SalesByDay, SalesMatrix) Generate()
    {
        var items = new ItemRange(1, SalesLoad.MaxItemId);
        var byDay = new SalesByDay(Stores, items, daysKept: 400);
        var allTime = new SalesMatrix(SalesLoad.MaxItemId, Stores, items);
        var random = new Random(2021);
        var lines = new SaleLine[SalesLoad.PurchasesPerEntry * SalesLoad.ItemsPerPurchase];
        var purchasesAt = new int[Stores + 1];
        var watch = System.Diagnostics.Stopwatch.StartNew();
        for (var d = 0; d < DaysGenerated; d++)
        {
            var day = FirstDay.AddDays(d);
            Array.Clear(purchasesAt);
            for (var p = 0; p < PurchasesADay; p++)
            {
                purchasesAt[random.Next(1, Stores + 1)]++;
            }

            for (var store = 1; store <= Stores; store++)
            {
                for (var left = purchasesAt[store]; left > 0; left -= SalesLoad.PurchasesPerEntry)
                {
                    var count = Math.Min(left, SalesLoad.PurchasesPerEntry) * SalesLoad.ItemsPerPurchase;
                    for (var i = 0; i < count; i++)
                    {
                        lines[i] = new SaleLine(store, random.Next(1, SalesLoad.MaxItemId + 1), 1, day);
                    }

                    byDay.RecordSales(lines.AsSpan(0, count));
                    allTime.RecordSales(lines.AsSpan(0, count));
                }
            }
        }

        Console.WriteLine($"// Recorded {DaysGenerated} days ({(long)DaysGenerated * PurchasesADay * SalesLoad.ItemsPerPurchase:N0} lines) into both in {watch.Elapsed.TotalSeconds:N0} s.");
        // What an aggregator's checkpoint pays for the days: its first save writes every packed day and block into
        // a file of its own, a save after it only what was packed since (here nothing), and a start reads them back.
        var folder = Path.Combine(Path.GetTempPath(), $"sales-by-day-benchmark-{Guid.NewGuid():N}");
        try
        {
            var files = new PackedFiles(folder);
            var file = new MemoryStream();
            watch.Restart();
            byDay.TakeSnapshot().WriteTo(file, files);
            var firstSave = watch.Elapsed;
            var again = new MemoryStream();
            watch.Restart();
            byDay.TakeSnapshot().WriteTo(again, files);
            Console.WriteLine($"// Saved the {DaysGenerated} days: {Directory.GetFiles(folder, "*", SearchOption.AllDirectories).Sum(path => new FileInfo(path).Length):N0} bytes of packed files and {file.Length:N0} in the checkpoint in {firstSave.TotalSeconds:N1} s; again, with nothing packed since, {again.Length:N0} bytes in {watch.Elapsed.TotalMilliseconds:N0} ms.");
            watch.Restart();
            var loaded = new SalesByDay(Stores, items, daysKept: 400);
            loaded.Load(new MemoryStream(again.GetBuffer(), 0, (int)again.Length), new PackedFiles(folder));
            Console.WriteLine($"// Loaded them back in {watch.Elapsed.TotalSeconds:N1} s; the same content: {loaded.Checksum() == byDay.Checksum()}.");
            return (loaded, allTime);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    /// <summary>Runs each job of the command line in this process, with time for the first case to generate the year:
    /// BenchmarkDotNet's own in-process toolchain (<c>--inProcess</c>) gives a case 5 minutes, which a slow machine's
    /// generation alone outlasts.</summary>
    internal sealed class InOneProcess : ManualConfig
    {
        private static readonly TimeSpan CaseTimeLimit = TimeSpan.FromMinutes(40);

        public InOneProcess() =>
            AddJob(Job.Default.WithToolchain(new InProcessEmitToolchain(CaseTimeLimit, logOutput: true)).AsMutator());
    }

    // Walks the ids with a stride coprime to their count, so consecutive queries touch different rows and columns.
    private int NextId(int max) => (_query = (_query + 7919) % max) + 1;
}
