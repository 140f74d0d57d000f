using Dapper;
using MySqlConnector;
using Supermarket.Contracts.Sales;
using Supermarket.Database;
using Supermarket.Database.Ledger;
using Supermarket.Database.Purchases;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Storage;

/// <summary>A database whose ledger a release before #73 wrote (entries without their lines' days) is dated by
/// migration 0010: its dating entries hold, by store, item and day, exactly what its purchases sum to, so the
/// aggregators can count the old sales into their days (SalesLedgerFeedTests counts them).</summary>
[Collection(nameof(SystemCollection))]
public sealed class SalesDatingMigrationTests
{
    private const string Database = TestSettings.DatabaseName + "_dating";

    [Fact]
    public async Task A_ledger_of_undated_entries_gets_dating_entries_equal_to_its_purchases_by_day()
    {
        await TestDatabase.CreateMigratedAsync(Database);
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString(Database));
        // What the release before stored: purchases, and their lines as bare store, item, quantity triples.
        (int Store, string Day, string Items, byte[] Sales)[] before =
        [
            (1, "2020-05-01", "[[10,3],[11,1]]", [0x01, 0x0A, 0x03, 0x01, 0x0B, 0x01]),
            (1, "2020-05-02", "[[10,2]]", [0x01, 0x0A, 0x02]),
            (2, "2020-05-02", "[[10,5],[10,1]]", [0x02, 0x0A, 0x05, 0x02, 0x0A, 0x01]),
        ];
        foreach (var (store, day, items, sales) in before)
        {
            await connection.ExecuteAsync(
                "INSERT INTO purchases (id, store_id, customer_id, purchase_date, received_at, items) VALUES (@id, @store, 1, @day, UTC_TIMESTAMP(6), @items);"
                + SalesLedgerAppend.Sql, new { id = PurchaseKeys.ToKey(Guid.CreateVersion7()), store, day, items, purchases = 1, sales });
        }

        await connection.ExecuteAsync("DELETE FROM schema_versions WHERE version = 10");
        var settings = TestSettings.For();
        settings["Database:ConnectionString"] = TestSettings.DatabaseAt(Database);
        await SupermarketSystem.MigrateSchemaAsync(settings);

        var dated = new List<SaleLine>();
        var entries = (await connection.QueryAsync<byte[]>("SELECT sales FROM sales_ledger ORDER BY seq")).ToList();
        foreach (var entry in entries.Where(entry => SalesLedgerEntry.IsDating(entry)))
        {
            SalesLedgerEntry.DecodeDays(entry, dated);
        }

        Assert.Equal(before.Length + 1, entries.Count);
        var day1 = new DateOnly(2020, 5, 1);
        Assert.Equal(
            [new SaleLine(1, 10, 3, day1), new SaleLine(1, 10, 2, day1.AddDays(1)), new SaleLine(1, 11, 1, day1), new SaleLine(2, 10, 6, day1.AddDays(1))],
            dated.OrderBy(line => line.StoreId).ThenBy(line => line.ItemId).ThenBy(line => line.Day));

        // Run again (its version listed), it dates nothing twice.
        await SupermarketSystem.MigrateSchemaAsync(settings);
        Assert.Equal(entries.Count, await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM sales_ledger"));
    }
}
