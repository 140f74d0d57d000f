using Dapper;
using MySqlConnector;
using Supermarket.Database;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>Reads what the Purchases writer stored, straight from MariaDB, as the schema owner: the services' own
/// accounts may read and change only what their statements need (migration 0007).</summary>
public static class TestDatabase
{
    /// <summary>One bound for all of them: a purchase that is never stored fails the test once, not after a wait
    /// per purchase.</summary>
    public static async Task AssertEachStoredOnceAsync(Guid[] ids, TimeSpan within)
    {
        var stored = await Eventually.UntilAsync(async () =>
        {
            var counts = new Dictionary<Guid, long>();
            foreach (var id in ids)
            {
                counts[id] = await CountPurchasesAsync(id);
            }

            return counts;
        }, counts => counts.Values.All(count => count > 0), within);
        Assert.Empty(stored.Where(purchase => purchase.Value == 0).Select(purchase => purchase.Key));
        Assert.Empty(stored.Where(purchase => purchase.Value > 1).Select(purchase => purchase.Key));
    }

    public static async Task<long> CountPurchasesAsync(Guid purchaseId)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        return await connection.ExecuteScalarAsync<long>(
            "SELECT COUNT(*) FROM purchases WHERE id = @id", new { id = PurchaseKeys.ToKey(purchaseId) });
    }

    /// <summary>Joins each purchase to its lines (stored in its row since migration 0002).</summary>
    public const string PurchaseLines =
        "purchases p, JSON_TABLE(p.items, '$[*]' COLUMNS (line_no FOR ORDINALITY, item_id INT PATH '$[0]', quantity INT PATH '$[1]')) AS i";

    public static async Task<PurchaseRow?> FindAsync(Guid purchaseId)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        var key = PurchaseKeys.ToKey(purchaseId);
        var purchase = await connection.QuerySingleOrDefaultAsync<(int StoreId, int CustomerId, DateTime Date)?>(
            "SELECT store_id, customer_id, purchase_date FROM purchases WHERE id = @key", new { key });
        if (purchase is not { } found)
        {
            return null;
        }

        var lines = await connection.QueryAsync<(int ItemId, int Quantity)>(
            $"SELECT i.item_id, i.quantity FROM {PurchaseLines} WHERE p.id = @key ORDER BY i.line_no", new { key });
        return new PurchaseRow(found.StoreId, found.CustomerId, DateOnly.FromDateTime(found.Date), [.. lines]);
    }

    /// <summary>Units sold per item at a store, best first (ties by the lower id): what the insight endpoints must
    /// answer, from MySQL's own rows.</summary>
    public static Task<(int ItemId, long Units)[]> TopItemsAsync(int store, int count = 10) => TopItemsAsync(store, null, null, count);

    /// <summary>MySQL's top items at a store over the purchases dated <paramref name="from"/> to <paramref name="to"/>
    /// (either null: open at that end).</summary>
    public static async Task<(int ItemId, long Units)[]> TopItemsAsync(int store, DateOnly? from, DateOnly? to, int count = 10)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        var rows = await connection.QueryAsync<(int, decimal)>(
            $"SELECT i.item_id, SUM(i.quantity) AS units FROM {PurchaseLines} WHERE p.store_id = @store " +
            "AND (@from IS NULL OR p.purchase_date >= @from) AND (@to IS NULL OR p.purchase_date <= @to) " +
            "GROUP BY i.item_id ORDER BY units DESC, i.item_id LIMIT @count",
            new { store, count, from = from?.ToDateTime(TimeOnly.MinValue), to = to?.ToDateTime(TimeOnly.MinValue) });
        return [.. rows.Select(r => (r.Item1, (long)r.Item2))];
    }

    /// <summary>MySQL's top stores for an item over the purchases dated <paramref name="from"/> to <paramref name="to"/>.</summary>
    public static async Task<(int StoreId, long Units)[]> TopStoresAsync(int item, DateOnly? from, DateOnly? to, int count = 5)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        var rows = await connection.QueryAsync<(int, decimal)>(
            $"SELECT p.store_id, SUM(i.quantity) AS units FROM {PurchaseLines} WHERE i.item_id = @item " +
            "AND (@from IS NULL OR p.purchase_date >= @from) AND (@to IS NULL OR p.purchase_date <= @to) " +
            "GROUP BY p.store_id ORDER BY units DESC, p.store_id LIMIT @count",
            new { item, count, from = from?.ToDateTime(TimeOnly.MinValue), to = to?.ToDateTime(TimeOnly.MinValue) });
        return [.. rows.Select(r => (r.Item1, (long)r.Item2))];
    }

    public static async Task<long> CountAsync(string sql, object? parameters = null)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        return await connection.ExecuteScalarAsync<long>(sql, parameters);
    }

    public static async Task<long[]> CustomersAsync(string sql)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        return [.. await connection.QueryAsync<long>(sql)];
    }

    public static async Task<T> QuerySingleAsync<T>(string sql)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        return await connection.QuerySingleAsync<T>(sql);
    }

    /// <summary>Changes the writer's tables behind its back, as an operator (or a restore) would.</summary>
    public static async Task ExecuteAsync(string sql)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        await connection.ExecuteAsync(sql);
    }

    /// <summary>A database of its own for a test, empty, made (anew) by the schema owner.</summary>
    public static async Task CreateEmptyAsync(string database)
    {
        await using var server = new MySqlConnection(TestSettings.OwnerConnectionString(database: "information_schema"));
        await server.ExecuteAsync($"DROP DATABASE IF EXISTS {database}; CREATE DATABASE {database}");
    }

    /// <summary>A database of its own for a test, made anew and migrated as the migration step migrates.</summary>
    public static async Task CreateMigratedAsync(string database)
    {
        await RealServices.PrepareAsync();
        await CreateEmptyAsync(database);
        var settings = TestSettings.For();
        settings["Database:ConnectionString"] = TestSettings.DatabaseAt(database);
        await SupermarketSystem.MigrateSchemaAsync(settings);
    }

    /// <summary>What only the schema owner may do (a trigger standing in for a constraint, say).</summary>
    public static async Task ExecuteAsOwnerAsync(string sql)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        await connection.ExecuteAsync(sql);
    }

    public static async Task<long> CountLinesAsync(Guid purchaseId)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        return await connection.ExecuteScalarAsync<long>(
            $"SELECT COUNT(*) FROM {PurchaseLines} WHERE p.id = @id", new { id = PurchaseKeys.ToKey(purchaseId) });
    }
}

/// <summary>A purchase as MySQL holds it: its row of the purchases table and the lines stored in it.</summary>
public sealed record PurchaseRow(int StoreId, int CustomerId, DateOnly Date, (int ItemId, int Quantity)[] Lines);
