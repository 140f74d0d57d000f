using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Dapper;
using MySql.Data.MySqlClient;
using Supermarket.LoadTest.Reporting;
using Supermarket.LoadTest.Scenario;

namespace Supermarket.LoadTest.Verification;

/// <summary>
/// After the last response: waits (bounded) until MySQL holds every purchase the run got a 201 for, then checks the
/// insight endpoints against MySQL's own sums, and, at stores that had no purchases before the run, against what the
/// run itself sent. Prints each check; any mismatch fails the run.
/// </summary>
public sealed class DayVerifier(LoadOptions options, HttpClient api, QueueDepths queues)
{
    private readonly DateTime _date = DateTime.ParseExact(options.Date, "yyyyMMdd", CultureInfo.InvariantCulture);

    /// <summary>Purchases stored for this run's stores and date.</summary>
    public async Task<long> CountStoredAsync()
    {
        await using var connection = new MySqlConnection(options.Database);
        return await connection.ExecuteScalarAsync<long>(
            "SELECT COUNT(*) FROM purchases WHERE store_id BETWEEN 1 AND @stores AND purchase_date = @date",
            new { stores = options.Stores, date = _date });
    }

    /// <summary>The stores, of those given, that have no purchases at all yet: their totals will be exactly this run's.</summary>
    public async Task<HashSet<int>> UntouchedStoresAsync(IEnumerable<int> stores)
    {
        await using var connection = new MySqlConnection(options.Database);
        var untouched = new HashSet<int>();
        foreach (var store in stores)
        {
            if (await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM purchases WHERE store_id = @store", new { store }) == 0)
            {
                untouched.Add(store);
            }
        }

        return untouched;
    }

    /// <summary>The ids of the purchases stored for this run's stores and date.</summary>
    public async Task<HashSet<Guid>> StoredIdsAsync()
    {
        await using var connection = new MySqlConnection(options.Database);
        var keys = await connection.QueryAsync<byte[]>(
            "SELECT id FROM purchases WHERE store_id BETWEEN 1 AND @stores AND purchase_date = @date",
            new { stores = options.Stores, date = _date });
        return [.. keys.Select(key => new Guid(key, bigEndian: true))];
    }

    /// <summary>What the id checks of a retrying run found, for the chaos run's table.</summary>
    public (long Acknowledged, long Stored, long Missing, long Unexpected) IdFigures { get; private set; }

    /// <param name="retried">When the run retried: the ids stored before it and what became of each purchase, for
    /// the id checks that replace the count check (a purchase retried after a 503 may have been stored already).</param>
    public async Task<bool> VerifyAsync(long storedBefore, long successful, SalesTally tally, IReadOnlySet<int> untouched,
        (IReadOnlySet<Guid> StoredBefore, PurchaseOutcomes Outcomes)? retried)
    {
        Console.WriteLine();
        Console.WriteLine("Verification");
        var watch = Stopwatch.StartNew();
        bool ok;
        if (retried is { } run)
        {
            ok = await VerifyIdsAsync(run.StoredBefore, run.Outcomes);
        }
        else
        {
            var expected = storedBefore + successful;
            var stored = await PollAsync(CountStoredAsync, count => count >= expected);
            ok = Check(stored - storedBefore == successful,
                $"purchases stored in MySQL for {options.Date}, stores 1..{options.Stores}: {stored - storedBefore:N0} new, successful POSTs: {successful:N0}");
        }

        var inMySql = watch.Elapsed.TotalSeconds;
        var drained = new double?[QueueDepths.Queues.Length];
        await PollAsync(async () =>
        {
            var depths = await queues.ReadAsync();
            for (var i = 0; i < depths.Length; i++)
            {
                drained[i] ??= depths[i] == 0 ? watch.Elapsed.TotalSeconds : null;
            }

            return drained.All(d => d.HasValue);
        }, all => all);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  lag after the last response: all in MySQL {inMySql:F1} s; writer's queue empty {Seconds(drained[0])} (sampled each second)"));

        var checks = new List<(string Path, IReadOnlyList<(int, long)> Truth)>();
        var checkedItems = new HashSet<int>();
        foreach (var store in tally.Stores.Order())
        {
            var truth = await TopItemsInMySqlAsync(store);
            checks.Add(($"items/store/{store}", truth));
            if (untouched.Contains(store))
            {
                ok &= Check(truth.SequenceEqual(tally.TopItems(store, 10)), $"MySQL's top 10 at store {store} = what this run sent there");
            }

            // Each store's best seller, once: the query scans purchase_items.
            if (truth.Count > 0 && checkedItems.Add(truth[0].Item1))
            {
                var item = truth[0].Item1;
                checks.Add(($"items/top10/{item}", await TopStoresInMySqlAsync(item)));
            }
        }

        foreach (var (path, truth) in checks)
        {
            var answer = await PollAsync(() => GetRankingAsync(path), got => got.SequenceEqual(truth));
            ok &= Check(answer.SequenceEqual(truth), $"GET /{path} = MySQL ({Describe(truth)})");
        }

        return ok;
    }

    /// <summary>Every acknowledged purchase is stored (none missing) and every new row is one of this run's purchases
    /// (none stored twice under another id). Given-up purchases may or may not be stored; both are fine.</summary>
    private async Task<bool> VerifyIdsAsync(IReadOnlySet<Guid> storedBefore, PurchaseOutcomes outcomes)
    {
        var acknowledged = outcomes.Acknowledged.ToHashSet();
        var planned = acknowledged.Concat(outcomes.GivenUp).ToHashSet();
        var stored = await PollAsync(
            async () => (await StoredIdsAsync()).Except(storedBefore).ToHashSet(),
            ids => acknowledged.IsSubsetOf(ids));
        var missing = acknowledged.LongCount(id => !stored.Contains(id));
        var unexpected = stored.LongCount(id => !planned.Contains(id));
        IdFigures = (acknowledged.Count, stored.Count, missing, unexpected);
        var ok = Check(missing == 0, $"acknowledged purchases missing from MySQL: {missing:N0} of {acknowledged.Count:N0}");
        ok &= Check(unexpected == 0, $"rows no purchase of this run explains (a purchase stored twice): {unexpected:N0} of {stored.Count:N0} new rows");
        Console.WriteLine($"  given up by the stores: {outcomes.GivenUp.Count:N0}, of which stored anyway: {outcomes.GivenUp.Count(stored.Contains):N0}");
        return ok;
    }

    private async Task<T> PollAsync<T>(Func<Task<T>> probe, Func<T, bool> done)
    {
        var deadline = Stopwatch.StartNew();
        while (true)
        {
            var value = await probe();
            if (done(value) || deadline.Elapsed > options.VerifyTimeout)
            {
                return value;
            }

            await Task.Delay(200);
        }
    }

    private Task<IReadOnlyList<(int, long)>> TopItemsInMySqlAsync(int store) => RankInMySqlAsync(
        """
        SELECT i.item_id, CAST(SUM(i.quantity) AS SIGNED) AS units
        FROM purchases p JOIN purchase_items i ON i.purchase_id = p.id
        WHERE p.store_id = @id
        GROUP BY i.item_id ORDER BY units DESC, i.item_id LIMIT 10
        """, store);

    // purchase_items has no index on item_id (nothing else needs one), so this scans the table: a long timeout.
    private Task<IReadOnlyList<(int, long)>> TopStoresInMySqlAsync(int item) => RankInMySqlAsync(
        """
        SELECT p.store_id, CAST(SUM(i.quantity) AS SIGNED) AS units
        FROM purchase_items i JOIN purchases p ON p.id = i.purchase_id
        WHERE i.item_id = @id
        GROUP BY p.store_id ORDER BY units DESC, p.store_id LIMIT 5
        """, item);

    /// <summary>MySQL's own ranking, ordered as the matrix ranks: most units, then the lower id.</summary>
    private async Task<IReadOnlyList<(int, long)>> RankInMySqlAsync(string sql, int id)
    {
        await using var connection = new MySqlConnection(options.Database);
        return [.. await connection.QueryAsync<(int, long)>(sql, new { id }, commandTimeout: 300)];
    }

    private async Task<IReadOnlyList<(int, long)>> GetRankingAsync(string path)
    {
        using var response = await api.GetAsync(path);
        if (!response.IsSuccessStatusCode)
        {
            return [];
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

    private static bool Check(bool passed, string what)
    {
        Console.WriteLine($"  {(passed ? "OK  " : "FAIL")} {what}");
        return passed;
    }

    private static string Describe(IReadOnlyList<(int Id, long Units)> ranking) =>
        ranking.Count == 0 ? "no sales" : string.Join(", ", ranking.Take(3).Select(r => $"{r.Id}:{r.Units}")) + (ranking.Count > 3 ? ", …" : "");
}
