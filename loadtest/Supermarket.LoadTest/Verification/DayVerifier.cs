using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text.Json;
using Supermarket.Database.LoadTest;
using Supermarket.LoadTest.Live;
using Supermarket.LoadTest.Reporting;
using Supermarket.LoadTest.Scenario;

namespace Supermarket.LoadTest.Verification;

/// <summary>
/// After the last response: waits (bounded: --verify-timeout without progress) until MySQL holds every purchase the run got a 201 for and the matrix
/// has counted them (the lag users feel), then checks the insight endpoints against MySQL's own sums, and, at stores that had no purchases before the run, against what the
/// run itself sent, and reads one store's and one customer's purchase history against what the run sent them
/// (<see cref="HistoryCheck"/>). Prints each check; any mismatch fails the run.
/// </summary>
public sealed class DayVerifier(LoadOptions options, HttpClient api)
{
    private readonly DateOnly _date = DateOnly.ParseExact(options.Date, "yyyyMMdd", CultureInfo.InvariantCulture);
    private readonly StoredSales _stored = new(options.Database);

    /// <summary>How many items a store's answer ranks, and how many stores an item's (the course's /items/top10/ answers five).</summary>
    private const int TopItemsAnswered = 10, TopStoresAnswered = 5;

    /// <summary>Purchases stored for this run's stores and date.</summary>
    public Task<long> CountStoredAsync() => _stored.CountPurchasesAsync(options.Stores, _date);

    /// <summary>The stores, of those given, that have no purchases at all yet: their totals will be exactly this run's.</summary>
    public Task<HashSet<int>> UntouchedStoresAsync(IEnumerable<int> stores) => _stored.StoresWithoutPurchasesAsync(stores);

    /// <summary>The ids of the purchases stored for this run's stores and date.</summary>
    public Task<HashSet<Guid>> StoredIdsAsync() => _stored.PurchaseIdsAsync(options.Stores, _date);

    /// <summary>The last sales ledger entry so far: the run's purchases are stored in the entries after it.</summary>
    public Task<long> LedgerSeqAsync() => _stored.LastLedgerSeqAsync();

    /// <summary>What the id checks of a retrying run found, for the chaos run's table.</summary>
    public (long Acknowledged, long Stored, long Missing, long Unexpected) IdFigures { get; private set; }

    private readonly List<VerificationCheck> _checks = [];

    /// <summary>Every check so far, passed or not, for the report.</summary>
    public IReadOnlyList<VerificationCheck> Checks => _checks;

    /// <summary>Whether every insight answer checked equalled MySQL's own ranking.</summary>
    public bool AnswersMatchMySql { get; private set; } = true;

    /// <summary>Seconds after the last response until every acknowledged purchase was in MySQL, and until the matrix
    /// had counted them too (null: not within the timeout).</summary>
    public (double? Stored, double? Counted) Lag { get; private set; }

    /// <param name="retried">When the run retried: the ids stored before it and what became of each purchase, for
    /// the id checks that replace the count check (a purchase retried after a 503 may have been stored already).</param>
    /// <param name="caughtUp">Called once every purchase is stored and counted (or the wait gave up), before the
    /// checks: the end of the day the run measures.</param>
    /// <param name="answersBefore">The answers before the day (<see cref="AnswersBeforeTheDayAsync"/>), for a database
    /// too large to sum again; null: the answers are checked against MySQL's sums over the whole history.</param>
    /// <returns>Whether every check passed. A verification that cannot finish (a query past its command timeout, the
    /// database or the API gone) is a failed check, so the run still reports the day it measured.</returns>
    public async Task<bool> VerifyAsync(long storedBefore, long ledgerBefore, long successful, SalesTally tally, HistorySample history,
        IReadOnlySet<int> untouched, (IReadOnlySet<Guid> StoredBefore, PurchaseOutcomes Outcomes)? retried, Func<Task>? caughtUp = null,
        AnswersBeforeTheDay? answersBefore = null)
    {
        Console.WriteLine();
        Console.WriteLine("Verification");
        try
        {
            return await CheckAllAsync(storedBefore, ledgerBefore, successful, tally, history, untouched, retried, caughtUp, answersBefore);
        }
        catch (Exception exception) when (DatabaseOutage.Explains(exception) || exception is TimeoutException or HttpRequestException)
        {
            return Check(false, $"the verification could not finish: {exception.GetType().Name}: {exception.Message}");
        }
    }

    private async Task<bool> CheckAllAsync(long storedBefore, long ledgerBefore, long successful, SalesTally tally, HistorySample history,
        IReadOnlySet<int> untouched, (IReadOnlySet<Guid> StoredBefore, PurchaseOutcomes Outcomes)? retried, Func<Task>? caughtUp,
        AnswersBeforeTheDay? answersBefore)
    {
        var watch = Stopwatch.StartNew();
        var ok = true;
        double? stored = null;
        if (retried is { } run)
        {
            ok = await VerifyIdsAsync(run.StoredBefore, run.Outcomes);
            stored = IdFigures.Missing == 0 ? watch.Elapsed.TotalSeconds : null;
        }
        else
        {
            // The ledger says how many purchases each transaction newly stored: a cheap poll on any history.
            var newlyStored = await PollAsync(() => NewlyStoredAsync(ledgerBefore), count => count >= successful, progress: count => count);
            stored = newlyStored >= successful ? watch.Elapsed.TotalSeconds : null;
        }

        // The answers are asked once, as soon as the matrix says it has counted the last entry: the first 200 to each
        // question must count everything stored (another replica, or one behind, must too); only "not now" (503, 504)
        // is asked again. Asking beside that wait gave a node-pause day's aggregator, unreachable for two minutes after
        // the pause, no time to come back.
        var lastEntry = await LedgerSeqAsync();
        var counted = await PollAsync(CountedThroughAsync, seq => seq >= lastEntry, progress: seq => seq);
        Lag = (stored, counted >= lastEntry ? watch.Elapsed.TotalSeconds : null);
        if (caughtUp is not null)
        {
            await caughtUp();
        }

        var answers = answersBefore is { } before
            ? await CheckAnswersAgainstTheDayAsync(before, ledgerBefore, tally, untouched, exact: retried is null)
            : await CheckAnswersAgainstWholeHistoryAsync(tally, untouched);
        answers &= await CheckRangesAsync(tally);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  lag after the last response: all stored in MySQL {Seconds(Lag.Stored)}, all counted in the matrix {Seconds(Lag.Counted)}"));

        if (retried is null)
        {
            var inMySql = await CountStoredAsync();
            ok &= Check(inMySql - storedBefore == successful,
                $"purchases stored in MySQL for {options.Date}, stores 1..{options.Stores}: {inMySql - storedBefore:N0} new, successful POSTs: {successful:N0}");
        }

        ok &= answers;

        foreach (var (passed, what) in await new HistoryCheck(api, options).VerifyAsync(history))
        {
            ok &= Check(passed, what);
        }

        return ok;
    }

    /// <summary>The answers at the sampled stores and for each store's best seller against MySQL's own sums over the
    /// whole history, and at stores new to this run against what it sent there.</summary>
    private async Task<bool> CheckAnswersAgainstWholeHistoryAsync(SalesTally tally, IReadOnlySet<int> untouched)
    {
        var ok = true;
        var checks = new List<(string Path, IReadOnlyList<(int, long)> Truth)>();
        var bestSellers = new SortedSet<int>();
        foreach (var store in tally.Stores.Order())
        {
            var truth = await TopItemsInMySqlAsync(store);
            checks.Add(($"items/store/{store}", truth));
            if (untouched.Contains(store))
            {
                ok &= CheckSentOnly(store, truth, tally);
            }

            if (truth.Count > 0)
            {
                bestSellers.Add(truth[0].Item1);
            }
        }

        // Each store's best seller, ranked across stores.
        foreach (var (item, truth) in await TopStoresInMySqlAsync(bestSellers))
        {
            checks.Add(($"items/top10/{item}", truth));
        }

        foreach (var (path, truth) in checks)
        {
            ok &= await CheckAnswerAsync(path, truth);
        }

        return ok;
    }

    /// <summary>
    /// The answers of a database too large to sum again (<see cref="LoadOptions.WholeHistoryChecksUpTo"/>), from what
    /// the day touched: the day's ledger entries at each sampled store equal what the run sent there (when it sent
    /// each purchase once), and each answer equals the one before the day plus the day's ledger entries
    /// (<see cref="RankingAfterTheDay"/>); stores new to this run as over the whole history, which is their day.
    /// </summary>
    private async Task<bool> CheckAnswersAgainstTheDayAsync(AnswersBeforeTheDay before, long ledgerBefore, SalesTally tally, IReadOnlySet<int> untouched, bool exact)
    {
        Console.WriteLine($"  {before.PurchasesHeld:N0} purchases held before the day, more than --whole-history-checks-up-to: the answers are checked "
            + "against those before the day and the day's ledger entries");
        var ok = Check(before.CountedWholeLedger, "the matrix had counted the whole ledger when it was asked before the day");
        var day = await _stored.SalesLedgeredAfterAsync(ledgerBefore, tally.Stores.ToHashSet(), before.TopStoresOfItem.Keys.ToHashSet());
        foreach (var store in tally.Stores.Order())
        {
            var ledgered = day.Where(sale => sale.Key.Store == store).ToDictionary(sale => sale.Key.Item, sale => sale.Value);
            if (exact)
            {
                var sent = tally.Units(store);
                ok &= Check(ledgered.Count == sent.Count && sent.All(sale => ledgered.GetValueOrDefault(sale.Key) == sale.Value),
                    $"the day's ledger entries at store {store} = what this run sent there ({sent.Count:N0} items, {sent.Values.Sum():N0} units)");
            }

            ok &= await CheckRankingAsync($"items/store/{store}", before.TopItemsAtStore[store], ledgered, TopItemsAnswered);
            if (untouched.Contains(store))
            {
                ok &= CheckSentOnly(store, await TopItemsInMySqlAsync(store), tally);
            }
        }

        foreach (var (item, ranking) in before.TopStoresOfItem.OrderBy(entry => entry.Key))
        {
            var ledgered = day.Where(sale => sale.Key.Item == item).ToDictionary(sale => sale.Key.Store, sale => sale.Value);
            ok &= await CheckRankingAsync($"items/top10/{item}", ranking, ledgered, TopStoresAnswered);
        }

        return ok;
    }

    /// <summary>The answers over a range of days, each asked once, against MySQL's sums over the purchases dated in it:
    /// the run's day alone, and the week ending on it (history a fill wrote before it included), at each sampled store
    /// and for each store's best seller of that range.</summary>
    private async Task<bool> CheckRangesAsync(SalesTally tally)
    {
        if (await NotDatedAsync(tally.Stores.Order().FirstOrDefault(1)))
        {
            // Not a failure: what the API promises of a ledger with sales no release dated (docs/operations.md).
            Console.WriteLine("  --   ranges of days not checked: the API answers them 503 \"Sales not dated.\", the ledger holding sales a writer "
                + "of a release before #73 stored after the upgrade (docs/operations.md, \"Dating old sales\")");
            return true;
        }

        var ok = true;
        foreach (var (from, to) in new[] { (_date, _date), (_date.AddDays(-6), _date) })
        {
            var range = $"from={from:yyyyMMdd}&to={to:yyyyMMdd}";
            var bestSellers = new SortedSet<int>();
            foreach (var store in tally.Stores.Order())
            {
                var truth = await _stored.TopItemsAtStoreAsync(store, TopItemsAnswered, from, to);
                ok &= await CheckAnswerAsync($"items/store/{store}?{range}", truth);
                if (truth.Count > 0)
                {
                    bestSellers.Add(truth[0].Item1);
                }
            }

            var byItem = (await _stored.SalesOfItemsAsync(bestSellers, from, to)).ToLookup(sale => sale.Item);
            foreach (var item in bestSellers)
            {
                IReadOnlyList<(int, long)> truth = [.. byItem[item].OrderByDescending(sale => sale.Units).ThenBy(sale => sale.Store)
                    .Take(TopStoresAnswered).Select(sale => (sale.Store, sale.Units))];
                ok &= await CheckAnswerAsync($"items/top10/{item}?{range}", truth);
            }
        }

        return ok;
    }

    /// <summary>Whether the aggregators refuse every range, their ledger holding sales without a day.</summary>
    private async Task<bool> NotDatedAsync(int store)
    {
        using var response = await api.GetAsync($"items/store/{store}?from={_date:yyyyMMdd}");
        return response.StatusCode == HttpStatusCode.ServiceUnavailable
            && (await response.Content.ReadAsStringAsync()).Contains("\"title\":\"Sales not dated.\"", StringComparison.Ordinal);
    }

    private async Task<bool> CheckAnswerAsync(string path, IReadOnlyList<(int, long)> truth)
    {
        var answer = await AskOnceAsync(path);
        var matches = Check(answer.SequenceEqual(truth), $"GET /{path}, asked once, = MySQL ({Describe(truth)})"
            + (answer.SequenceEqual(truth) ? "" : $": answered {Describe(answer)}"));
        AnswersMatchMySql &= matches;
        return matches;
    }

    /// <summary>At a store new to this run, MySQL's top items are what the run sent there.</summary>
    private bool CheckSentOnly(int store, IReadOnlyList<(int, long)> inMySql, SalesTally tally) =>
        Check(inMySql.SequenceEqual(tally.TopItems(store, TopItemsAnswered)), $"MySQL's top {TopItemsAnswered} at store {store} = what this run sent there");

    private async Task<bool> CheckRankingAsync(string path, IReadOnlyList<(int Id, long Units)> before, IReadOnlyDictionary<int, long> day, int size)
    {
        var answer = await AskOnceAsync(path);
        var problems = RankingAfterTheDay.Problems(before, answer, day, size);
        var matches = Check(problems.Count == 0, $"GET /{path}, asked once, = its answer before the day + the day's ledger entries ({Describe(answer)})"
            + (problems.Count == 0 ? "" : ": " + string.Join("; ", problems.Take(3))));
        AnswersMatchMySql &= matches;
        return matches;
    }

    /// <summary>
    /// The answers a verification bounded by the day starts from, asked once the matrix has counted the whole ledger:
    /// at the sampled stores and for each one's best seller. Null while the database holds no more than
    /// <see cref="LoadOptions.WholeHistoryChecksUpTo"/> purchases: then the answers after the day are checked against
    /// MySQL's sums over the whole history. Call it before the day, while nothing else stores purchases.
    /// </summary>
    public async Task<AnswersBeforeTheDay?> AnswersBeforeTheDayAsync(IReadOnlyCollection<int> stores)
    {
        var held = await _stored.PurchasesHeldAsync();
        if (held <= options.WholeHistoryChecksUpTo)
        {
            return null;
        }

        var last = await LedgerSeqAsync();
        var counted = await PollAsync(CountedThroughAsync, seq => seq >= last, progress: seq => seq) >= last;
        var byStore = new Dictionary<int, IReadOnlyList<(int Id, long Units)>>();
        foreach (var store in stores)
        {
            byStore[store] = await AskOnceAsync($"items/store/{store}");
        }

        var byItem = new Dictionary<int, IReadOnlyList<(int Id, long Units)>>();
        foreach (var item in byStore.Values.Where(ranking => ranking.Count > 0).Select(ranking => ranking[0].Id).Distinct())
        {
            byItem[item] = await AskOnceAsync($"items/top10/{item}");
        }

        return new AnswersBeforeTheDay(held, counted, byStore, byItem);
    }

    /// <summary>Every acknowledged purchase is stored (none missing; a late retry's may have been stored before the
    /// run began), and every row the run added is one of its purchases (none stored twice under another id).
    /// Given-up purchases may or may not be stored; both are fine.</summary>
    private async Task<bool> VerifyIdsAsync(IReadOnlySet<Guid> storedBefore, PurchaseOutcomes outcomes)
    {
        var acknowledged = outcomes.Acknowledged.ToHashSet();
        var planned = acknowledged.Concat(outcomes.GivenUp).ToHashSet();
        var stored = await PollAsync(StoredIdsAsync, ids => acknowledged.IsSubsetOf(ids), progress: ids => ids.Count);
        var added = stored.Except(storedBefore).ToHashSet();
        var missing = acknowledged.LongCount(id => !stored.Contains(id));
        var unexpected = added.LongCount(id => !planned.Contains(id));
        IdFigures = (acknowledged.Count, acknowledged.Count - missing, missing, unexpected);
        var ok = Check(missing == 0, $"acknowledged purchases missing from MySQL: {missing:N0} of {acknowledged.Count:N0}");
        ok &= Check(unexpected == 0, $"rows no purchase of this run explains (a purchase stored twice): {unexpected:N0} of {added.Count:N0} new rows");
        Console.WriteLine($"  acknowledged purchases stored before the run began (late retries): {acknowledged.Count(storedBefore.Contains):N0}");
        Console.WriteLine($"  given up by the stores: {outcomes.GivenUp.Count:N0}, of which stored anyway: {outcomes.GivenUp.Count(stored.Contains):N0}");
        return ok;
    }

    private Task<long> NewlyStoredAsync(long ledgerBefore) => _stored.PurchasesStoredAfterAsync(ledgerBefore);

    private async Task<long> CountedThroughAsync() => await SalesCountedThrough.ReadAsync(api) ?? -1;

    /// <summary>Probes until done, or until the timeout passes without progress: with <paramref name="progress"/>,
    /// each time the figure it reads grows (more stored, more counted), the wait starts over, so a slow drain is
    /// waited for and a stalled one is not.</summary>
    private async Task<T> PollAsync<T>(Func<Task<T>> probe, Func<T, bool> done, Func<T, long>? progress = null)
    {
        var deadline = Stopwatch.StartNew();
        var best = long.MinValue;
        while (true)
        {
            var value = await probe();
            if (progress?.Invoke(value) is { } figure && figure > best)
            {
                best = figure;
                deadline.Restart();
            }

            if (done(value) || deadline.Elapsed > options.VerifyTimeout)
            {
                return value;
            }

            await Task.Delay(200);
        }
    }

    /// <summary>MySQL's own top 10 of the store, ranked as the matrix ranks.</summary>
    private Task<IReadOnlyList<(int, long)>> TopItemsInMySqlAsync(int store) => _stored.TopItemsAtStoreAsync(store, TopItemsAnswered);

    /// <summary>The top 5 stores of each item, ranked as the matrix ranks: most units, then the lower id.</summary>
    private async Task<IReadOnlyList<(int Item, IReadOnlyList<(int, long)> Stores)>> TopStoresInMySqlAsync(IReadOnlyCollection<int> items)
    {
        var byItem = (await _stored.SalesOfItemsAsync(items)).ToLookup(sale => sale.Item);
        return [.. items.Select(item => (item, (IReadOnlyList<(int, long)>)[.. byItem[item]
            .OrderByDescending(sale => sale.Units).ThenBy(sale => sale.Store).Take(TopStoresAnswered).Select(sale => (sale.Store, sale.Units))]))];
    }

    /// <summary>The first answer (200) to a question: the one checked. Only "not now" (503 while a shard is away, 504
    /// past the aggregator's deadline) is asked again, until --verify-timeout.</summary>
    private async Task<IReadOnlyList<(int, long)>> AskOnceAsync(string path)
    {
        var deadline = Stopwatch.StartNew();
        while (true)
        {
            try
            {
                return await GetRankingAsync(path);
            }
            catch (HttpRequestException notNow) when (notNow.StatusCode is HttpStatusCode.ServiceUnavailable or HttpStatusCode.GatewayTimeout
                && deadline.Elapsed < options.VerifyTimeout)
            {
                await Task.Delay(200);
            }
        }
    }

    /// <summary>An answer; any status but 200 is an <see cref="HttpRequestException"/> naming it, never an empty list.</summary>
    private async Task<IReadOnlyList<(int, long)>> GetRankingAsync(string path)
    {
        using var response = await api.GetAsync(path);
        if (!response.IsSuccessStatusCode)
        {
            throw new HttpRequestException($"GET /{path} answered {(int)response.StatusCode}", null, response.StatusCode);
        }

        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return [.. json.RootElement.GetProperty("stores").EnumerateArray().Select(entry =>
        {
            var id = entry.TryGetProperty("itemID", out var itemId) ? itemId : entry.GetProperty("storeID");
            return (id.GetInt32(), entry.GetProperty("numberOfItems").GetInt64());
        })];
    }

    private static string Seconds(double? seconds) =>
        seconds is { } s ? string.Create(CultureInfo.InvariantCulture, $"{s:F1} s") : "not within the timeout";

    private bool Check(bool passed, string what)
    {
        Console.WriteLine($"  {(passed ? "OK  " : "FAIL")} {what}");
        _checks.Add(new VerificationCheck(what, passed));
        return passed;
    }

    private static string Describe(IReadOnlyList<(int Id, long Units)> ranking) =>
        ranking.Count == 0 ? "no sales" : string.Join(", ", ranking.Take(3).Select(r => $"{r.Id}:{r.Units}")) + (ranking.Count > 3 ? ", …" : "");
}
