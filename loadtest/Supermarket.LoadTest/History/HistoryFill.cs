using System.Diagnostics;
using System.Globalization;
using System.Threading.Channels;
using Supermarket.Database.LoadTest;

namespace Supermarket.LoadTest.History;

/// <summary>
/// Fills the database with the chain's past, day by day (<see cref="HistoryDay"/>), through the schema owner's bulk
/// path (<see cref="HistoryBulkLoad"/>: the writer's rows, ids and ledger). Resumable: a day already whole is skipped,
/// and a day cut short goes on after its last whole transaction, which is why the transactions of a day are stored in
/// order, one at a time. The next transactions are made (their rows' stream and ledger entry) while the server
/// stores one, on another core. A line every few seconds says how far it is; the last one, its rate.
/// </summary>
public sealed class HistoryFill(HistoryFillOptions options, TextWriter log)
{
    private static readonly TimeSpan ProgressEvery = TimeSpan.FromSeconds(5);

    /// <summary>Transactions made ahead of the one being stored: enough to keep the server busy, few enough to hold
    /// (about 3 MB each at 20,000 purchases).</summary>
    private const int PreparedAhead = 2;

    private readonly long _started = Stopwatch.GetTimestamp();
    private long _lastProgress = Stopwatch.GetTimestamp();
    private long _filled;

    public async Task<int> RunAsync(CancellationToken cancellationToken)
    {
        var chain = options.Chain;
        var perDay = chain.TotalPurchases;
        var firstAfter = DateOnly.ParseExact(chain.Date, "yyyyMMdd", CultureInfo.InvariantCulture);
        var bulk = new HistoryBulkLoad(options.Database);
        var stored = new StoredSales(options.Database);
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

            await FillAsync(bulk, day, already, cancellationToken);
            log.WriteLine($"{day:yyyy-MM-dd}: whole ({perDay:N0} purchases)");
        }

        log.WriteLine($"filled {_filled:N0} purchases in {Stopwatch.GetElapsedTime(_started).TotalSeconds:F1} s: {Rate():N0} a second");
        return 0;
    }

    /// <summary>Stores the day's purchases after the first <paramref name="already"/>, a transaction at a time, in
    /// order, while the next ones are made.</summary>
    private async Task FillAsync(HistoryBulkLoad bulk, DateOnly day, long already, CancellationToken cancellationToken)
    {
        var transactions = Channel.CreateBounded<HistoryBulkLoad.Transaction>(PreparedAhead);
        // Stopped when storing fails: nothing would read what it makes.
        using var storing = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var preparing = Task.Run(async () =>
        {
            try
            {
                foreach (var purchases in HistoryDay.Purchases(options.Chain, day).Skip((int)already).Chunk(options.PurchasesPerTransaction))
                {
                    await transactions.Writer.WriteAsync(HistoryBulkLoad.Prepare(purchases), storing.Token);
                }
            }
            finally
            {
                transactions.Writer.Complete();
            }
        }, storing.Token);

        try
        {
            await foreach (var transaction in transactions.Reader.ReadAllAsync(cancellationToken))
            {
                await bulk.StoreAsync(transaction, cancellationToken);
                _filled += transaction.Purchases;
                if (Stopwatch.GetElapsedTime(_lastProgress) >= ProgressEvery)
                {
                    _lastProgress = Stopwatch.GetTimestamp();
                    log.WriteLine($"{day:yyyy-MM-dd}: {_filled:N0} purchases stored so far, {Rate():N0} a second");
                }
            }
        }
        catch
        {
            await storing.CancelAsync();
            throw;
        }

        await preparing;
    }

    private double Rate() => _filled / Math.Max(0.001, Stopwatch.GetElapsedTime(_started).TotalSeconds);
}
