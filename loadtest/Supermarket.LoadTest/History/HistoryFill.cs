using System.Diagnostics;
using System.Globalization;
using Supermarket.Database.LoadTest;

namespace Supermarket.LoadTest.History;

/// <summary>
/// Fills the database with the chain's past, day by day (<see cref="HistoryDay"/>), through the schema owner's bulk
/// path (<see cref="HistoryBulkLoad"/>: the writer's rows, ids and ledger). Resumable: a day already whole is skipped,
/// and a day cut short goes on after its last whole transaction, which is why the transactions of a day are stored in
/// order, one at a time; several days are filled at once (<see cref="HistoryFillOptions.DaysAtOnce"/>), each on its
/// own connection. A line every few seconds says how far it is; the last one, its rate.
/// </summary>
public sealed class HistoryFill(HistoryFillOptions options, TextWriter log)
{
    private static readonly TimeSpan ProgressEvery = TimeSpan.FromSeconds(5);

    private readonly long _started = Stopwatch.GetTimestamp();
    private long _lastProgress = Stopwatch.GetTimestamp();
    private long _filled;

    private long Filled => Interlocked.Read(ref _filled);

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        if (options.Chain.Stores > options.MaxStoreId)
        {
            log.WriteLine($"error: --stores {options.Chain.Stores} is beyond the system's stores 1-{options.MaxStoreId} (Catalog:MaxStoreId; --max-store-id): "
                + "the API refuses such a store's purchases and the aggregators count none of them, so a history of them is one the system could not have.");
            return 2;
        }

        var firstAfter = DateOnly.ParseExact(options.Chain.Date, "yyyyMMdd", CultureInfo.InvariantCulture);
        var days = Enumerable.Range(1, options.Days).Select(back => firstAfter.AddDays(-back)).Reverse();
        var bulk = new HistoryBulkLoad(options.Database);
        await Parallel.ForEachAsync(days, new ParallelOptions { MaxDegreeOfParallelism = options.DaysAtOnce, CancellationToken = cancellationToken },
            (day, cancellation) => FillDayAsync(bulk, day, cancellation));
        log.WriteLine($"filled {Filled:N0} purchases in {Stopwatch.GetElapsedTime(_started).TotalSeconds:F1} s: {Rate():N0} a second");
        return 0;
    }

    /// <summary>A day's purchases, after those a fill stored already (a fill cut short): each day's transactions are
    /// stored in order, so what a day holds of the fill's is always a whole number of its first transactions. Purchases
    /// posted live and dated that day are not the fill's (<see cref="HistoryBulkLoad.CountFilledAsync"/>).</summary>
    private async ValueTask FillDayAsync(HistoryBulkLoad bulk, DateOnly day, CancellationToken cancellationToken)
    {
        var perDay = options.Chain.TotalPurchases;
        var already = await bulk.CountFilledAsync(options.Chain.Stores, day);
        if (already == perDay)
        {
            log.WriteLine($"{day:yyyy-MM-dd}: whole already ({perDay:N0} purchases)");
            return;
        }

        if (already % options.PurchasesPerTransaction != 0 || already > perDay)
        {
            throw new InvalidOperationException($"{day:yyyy-MM-dd} holds {already:N0} purchases of stores 1-{options.Chain.Stores} received that day, not a number this fill leaves: "
                + "another fill (of another chain or --purchases-per-transaction) stored them. Fill days before them (--date).");
        }

        await FillAsync(bulk, day, already, cancellationToken);
        log.WriteLine($"{day:yyyy-MM-dd}: whole ({perDay:N0} purchases)");
    }

    /// <summary>Stores the day's purchases after the first <paramref name="already"/>, a transaction at a time, in order.</summary>
    private async Task FillAsync(HistoryBulkLoad bulk, DateOnly day, long already, CancellationToken cancellationToken)
    {
        foreach (var purchases in HistoryDay.Purchases(options.Chain, day).Skip((int)already).Chunk(options.PurchasesPerTransaction))
        {
            await bulk.StoreAsync(purchases, cancellationToken);
            var filled = Interlocked.Add(ref _filled, purchases.Length);
            var last = Interlocked.Read(ref _lastProgress);
            if (Stopwatch.GetElapsedTime(last) >= ProgressEvery && Interlocked.CompareExchange(ref _lastProgress, Stopwatch.GetTimestamp(), last) == last)
            {
                log.WriteLine($"{day:yyyy-MM-dd}: {filled:N0} purchases stored so far, {Rate():N0} a second");
            }
        }
    }

    private double Rate() => Filled / Math.Max(0.001, Stopwatch.GetElapsedTime(_started).TotalSeconds);
}
