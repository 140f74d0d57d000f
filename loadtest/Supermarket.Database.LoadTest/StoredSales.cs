using Dapper;
using MySqlConnector;
using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;

namespace Supermarket.Database.LoadTest;

/// <summary>
/// What the Purchases writer stored, read back for those who check it (the load test's verification, its live view and
/// its report), on the schema Supermarket.Database owns: kept beside it, so a migration that changes a table changes
/// this reader in the same place. Read-only; any account that may SELECT them.
/// </summary>
public sealed class StoredSales(string connectionString)
{
    /// <summary>Each purchase joined to its lines, which are stored in its row (migration 0002).</summary>
    private const string PurchaseLines =
        "purchases p, JSON_TABLE(p.items, '$[*]' COLUMNS (item_id INT PATH '$[0]', quantity INT PATH '$[1]')) AS l";

    /// <summary>A run's purchases: those of stores 1..N dated one day (<see cref="RunParameters"/>). Each store is named:
    /// on the index (store_id, purchase_date, ...) that is one range of the day's entries a store, where a range of
    /// stores would read all of the stores between the first's day and the last's, their whole history (50 million
    /// entries at 50 million purchases, twice a run).</summary>
    public const string RunPurchases = "purchases WHERE store_id IN @stores AND purchase_date = @date";

    public static object RunParameters(int stores, DateOnly date) =>
        new { stores = Enumerable.Range(1, stores), date = date.ToDateTime(TimeOnly.MinValue) };

    /// <summary>Purchases stored for stores 1..<paramref name="stores"/> dated <paramref name="date"/>.</summary>
    public async Task<long> CountPurchasesAsync(int stores, DateOnly date)
    {
        await using var connection = new MySqlConnection(connectionString);
        return await connection.ExecuteScalarAsync<long>($"SELECT COUNT(*) FROM {RunPurchases}", RunParameters(stores, date));
    }

    /// <summary>The ids of the purchases stored for stores 1..<paramref name="stores"/> dated <paramref name="date"/>.</summary>
    public async Task<HashSet<Guid>> PurchaseIdsAsync(int stores, DateOnly date)
    {
        await using var connection = new MySqlConnection(connectionString);
        var keys = await connection.QueryAsync<byte[]>($"SELECT id FROM {RunPurchases}", RunParameters(stores, date));
        return [.. keys.Select(PurchaseKeys.FromKey)];
    }

    /// <summary>The stores, of those given, that have no purchase stored yet, of any date.</summary>
    public async Task<HashSet<int>> StoresWithoutPurchasesAsync(IEnumerable<int> stores)
    {
        await using var connection = new MySqlConnection(connectionString);
        var without = new HashSet<int>();
        foreach (var store in stores)
        {
            if (await connection.ExecuteScalarAsync<long>("SELECT EXISTS (SELECT 1 FROM purchases WHERE store_id = @store)", new { store }) == 0)
            {
                without.Add(store);
            }
        }

        return without;
    }

    /// <summary>The last sales ledger entry so far (0: none): purchases stored from now on are in the entries after it.</summary>
    public async Task<long> LastLedgerSeqAsync()
    {
        await using var connection = new MySqlConnection(connectionString);
        return await connection.ExecuteScalarAsync<long>("SELECT COALESCE(MAX(seq), 0) FROM sales_ledger");
    }

    /// <summary>The ledger entries after <paramref name="seq"/>, in order, each with the purchases it newly stored.</summary>
    public async Task<IReadOnlyList<(long Seq, long Purchases)>> LedgerEntriesAfterAsync(long seq)
    {
        await using var connection = new MySqlConnection(connectionString);
        return [.. await connection.QueryAsync<(long, long)>("SELECT seq, purchases FROM sales_ledger WHERE seq > @seq ORDER BY seq", new { seq })];
    }

    /// <summary>Purchases stored in the ledger entries after <paramref name="seq"/> (0: all of them): exact, and one
    /// row read per transaction, not one per purchase.</summary>
    public async Task<long> PurchasesStoredAfterAsync(long seq)
    {
        await using var connection = new MySqlConnection(connectionString);
        return await connection.ExecuteScalarAsync<long>(
            "SELECT COALESCE(SUM(purchases), 0) FROM sales_ledger WHERE seq > @seq", new { seq }, commandTimeout: 300);
    }

    /// <summary>The units each (store, item) sold in the ledger entries after <paramref name="seq"/>: what was newly
    /// stored since, read from the day's own entries (one row a transaction, whatever the history holds), for the
    /// stores and the items asked.</summary>
    public async Task<Dictionary<(int Store, int Item), long>> SalesLedgeredAfterAsync(long seq, IReadOnlySet<int> stores, IReadOnlySet<int> items)
    {
        await using var connection = new MySqlConnection(connectionString);
        await using var entries = await connection.ExecuteReaderAsync("SELECT sales FROM sales_ledger WHERE seq > @seq", new { seq }, commandTimeout: 300);
        var sales = new Dictionary<(int, int), long>();
        var lines = new List<SaleLine>();
        while (await entries.ReadAsync())
        {
            lines.Clear();
            SalesLedgerEntry.Decode((byte[])entries.GetValue(0), lines);
            foreach (var line in lines.Where(line => stores.Contains(line.StoreId) || items.Contains(line.ItemId)))
            {
                sales[(line.StoreId, line.ItemId)] = sales.GetValueOrDefault((line.StoreId, line.ItemId)) + line.Quantity;
            }
        }

        return sales;
    }

    /// <summary>About how many purchases the database holds: InnoDB's estimate, which reads no row.</summary>
    public async Task<long> PurchasesHeldAsync()
    {
        await using var connection = new MySqlConnection(connectionString);
        return await connection.ExecuteScalarAsync<long>(
            "SELECT COALESCE(MAX(TABLE_ROWS), 0) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'purchases'");
    }

    /// <summary>A store's best-selling items by units, ranked as the matrix ranks: most units, then the lower id; of
    /// the purchases dated <paramref name="from"/> to <paramref name="to"/> when given (the store-and-day index reads
    /// only those).</summary>
    public async Task<IReadOnlyList<(int Item, long Units)>> TopItemsAtStoreAsync(int store, int count, DateOnly? from = null, DateOnly? to = null)
    {
        await using var connection = new MySqlConnection(connectionString);
        return [.. await connection.QueryAsync<(int, long)>(
            $"""
            SELECT l.item_id, CAST(SUM(l.quantity) AS SIGNED) AS units
            FROM {PurchaseLines}
            WHERE p.store_id = @store AND p.purchase_date BETWEEN @from AND @to
            GROUP BY l.item_id ORDER BY units DESC, l.item_id LIMIT @count
            """, new { store, count, from = Day(from ?? DateOnly.MinValue), to = Day(to ?? DateOnly.MaxValue) }, commandTimeout: 300)];
    }

    /// <summary>The units of each of the items sold at each store. Nothing indexes the lines by item (nothing else
    /// needs it), so this reads every purchase: one pass for all the items asked, whose cost grows with the history,
    /// not with the number of items. Of a range of days, it reads only those days' purchases, one range of the
    /// store-and-day index per store.</summary>
    public async Task<IReadOnlyList<(int Item, int Store, long Units)>> SalesOfItemsAsync(IReadOnlyCollection<int> items, DateOnly? from = null, DateOnly? to = null)
    {
        if (items.Count == 0)
        {
            return [];
        }

        await using var connection = new MySqlConnection(connectionString);
        var ranged = from is not null || to is not null;
        var stores = ranged ? Enumerable.Range(1, await connection.ExecuteScalarAsync<int?>("SELECT MAX(store_id) FROM purchases") ?? 0).ToArray() : [];
        return [.. await connection.QueryAsync<(int, int, long)>(
            $"""
            SELECT l.item_id, p.store_id, CAST(SUM(l.quantity) AS SIGNED) AS units
            FROM {PurchaseLines}
            WHERE l.item_id IN @items {(ranged ? "AND p.store_id IN @stores AND p.purchase_date BETWEEN @from AND @to" : "")}
            GROUP BY l.item_id, p.store_id
            """, new { items, stores, from = Day(from ?? DateOnly.MinValue), to = Day(to ?? DateOnly.MaxValue) }, commandTimeout: 600)];
    }

    /// <summary>A day as MySqlConnector sends a DATE; the open ends as the DATE type's own bounds.</summary>
    private static DateTime Day(DateOnly day) =>
        day.ToDateTime(TimeOnly.MinValue) is var at && at.Year < 1000 ? new DateTime(1000, 1, 1) : at;

    /// <summary>The database server's version and the two settings that shape the writer's speed.</summary>
    /// <summary>InnoDB's buffer pool counters since the server started: pages read from disk, pages asked of the
    /// pool, pages written. Any account may read them.</summary>
    /// <summary>The buffer pool's counters since the server started, and how long ago it did (its uptime): counters
    /// of two different starts are not comparable.</summary>
    public async Task<(long PagesRead, long PagesRequested, long PagesWritten, long UptimeSeconds)> BufferPoolCountersAsync()
    {
        await using var connection = new MySqlConnection(connectionString);
        return await connection.QuerySingleAsync<(long, long, long, long)>(
            """
            SELECT SUM(IF(VARIABLE_NAME = 'INNODB_BUFFER_POOL_READS', VARIABLE_VALUE, 0)),
                   SUM(IF(VARIABLE_NAME = 'INNODB_BUFFER_POOL_READ_REQUESTS', VARIABLE_VALUE, 0)),
                   SUM(IF(VARIABLE_NAME = 'INNODB_PAGES_WRITTEN', VARIABLE_VALUE, 0)),
                   SUM(IF(VARIABLE_NAME = 'UPTIME', VARIABLE_VALUE, 0))
            FROM information_schema.GLOBAL_STATUS
            WHERE VARIABLE_NAME IN ('INNODB_BUFFER_POOL_READS', 'INNODB_BUFFER_POOL_READ_REQUESTS', 'INNODB_PAGES_WRITTEN', 'UPTIME')
            """);
    }

    public async Task<(string Version, long BufferPoolBytes, long FlushLogAtCommit)> ServerAsync()
    {
        await using var connection = new MySqlConnection(connectionString);
        return await connection.QuerySingleAsync<(string, long, long)>("SELECT VERSION(), @@innodb_buffer_pool_size, @@innodb_flush_log_at_trx_commit");
    }
}
