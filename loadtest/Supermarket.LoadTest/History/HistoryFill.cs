using System.Diagnostics;
using System.Globalization;
using Supermarket.Database.LoadTest;

namespace Supermarket.LoadTest.History;

/// <summary>
/// Fills the database with the chain's past, day by day (<see cref="HistoryDay"/>), through the schema owner's bulk
/// path (<see cref="HistoryBulkLoad"/>: the writer's rows, ids and ledger). Resumable: a day already whole is skipped,
/// and a day cut short goes on after its last whole transaction, which is why the transactions of a day are stored in
/// order, one at a time. A line every few seconds says how far it is; the last one, its rate.
/// </summary>
public sealed class HistoryFill(HistoryFillOptions options, TextWriter log)
{
    private static readonly TimeSpan ProgressEvery = TimeSpan.FromSeconds(5);

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var chain = options.Chain;
        var perDay = chain.TotalPurchases;
        var firstAfter = DateOnly.ParseExact(chain.Date, "yyyyMMdd", CultureInfo.InvariantCulture);
        var database = options.Database;
        var bulk = new HistoryBulkLoad(database);
        var stored = new StoredSales(database);
        var started = Stopwatch.GetTimestamp();
        var lastProgress = started;
        long filled = 0;
        for (var day = firstAfter.AddDays(-options.Days); day < firstAfter; day = day.AddDays(1))
        {
            var already = await stored.CountPurchasesAsync(chain.Stores, day);
            if (already == perDay)
            {
                log.WriteLine($"{day:yyyy-MM-dd}: whole already ({perDay:N0} purchases)");
                continue;
            }

            if (already % options.PurchasesPerTransaction != 0 || already > perDay)
            {
                throw new InvalidOperationException($"{day:yyyy-MM-dd} holds {already:N0} purchases of stores 1-{chain.Stores}, not a number this fill leaves: "
                    + "other purchases are dated that day (a load test's day?). Fill days before them (--date).");
            }

            foreach (var transaction in HistoryDay.Purchases(chain, day).Skip((int)already).Chunk(options.PurchasesPerTransaction))
            {
                await bulk.StoreAsync(transaction, cancellationToken);
                filled += transaction.Length;
                if (Stopwatch.GetElapsedTime(lastProgress) >= ProgressEvery)
                {
                    lastProgress = Stopwatch.GetTimestamp();
                    log.WriteLine($"{day:yyyy-MM-dd}: {filled:N0} purchases stored so far, {Rate(filled, started):N0} a second");
                }
            }

            log.WriteLine($"{day:yyyy-MM-dd}: whole ({perDay:N0} purchases)");
        }

        log.WriteLine($"filled {filled:N0} purchases in {Stopwatch.GetElapsedTime(started).TotalSeconds:F1} s: {Rate(filled, started):N0} a second");
        return 0;
    }

    private static double Rate(long purchases, long since) => purchases / Math.Max(0.001, Stopwatch.GetElapsedTime(since).TotalSeconds);
}
