extern alias LoadTest;

using Dapper;
using LoadTest::Supermarket.LoadTest.History;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.History;
using Supermarket.Contracts.Purchases;
using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;
using Supermarket.Database;
using Supermarket.Database.History;
using Supermarket.Database.LoadTest;
using Supermarket.IntegrationTests.Infrastructure;
using Chain = LoadTest::Supermarket.LoadTest.LoadOptions;

namespace Supermarket.IntegrationTests.LoadTest;

/// <summary>The history filler on MariaDB, in a database of its own: each day stored once, with sales ledger entries
/// that hold exactly its sales, readable by the writer's own history reader, and a fill cut short goes on where it
/// stopped.</summary>
public sealed class HistoryFillOnMariaDbTests
{
    private const string Database = TestSettings.DatabaseName + "_history_fill";
    private static readonly Chain Tiny = new() { Stores = 4, PurchasesPerHour = 10, Hours = 2, Date = "20180210" };

    [Fact]
    public async Task Each_day_is_stored_once_with_its_sales_in_the_ledger_and_a_cut_fill_goes_on_where_it_stopped()
    {
        await TestDatabase.CreateMigratedAsync(Database);
        var options = new HistoryFillOptions { Days = 1, PurchasesPerTransaction = 30, Chain = Tiny, Database = TestSettings.ConnectionString(Database) };
        // A fill cut short after its first transaction of 2018-02-08: what it leaves.
        await new HistoryBulkLoad(options.Database).StoreAsync(
            [.. HistoryDay.Purchases(Tiny, new DateOnly(2018, 2, 8)).Take(30)], TestContext.Current.CancellationToken);

        Assert.Equal(0, await new HistoryFill(options, TextWriter.Null).RunAsync(TestContext.Current.CancellationToken));
        Assert.Equal(0, await new HistoryFill(options with { Days = 3 }, TextWriter.Null).RunAsync(TestContext.Current.CancellationToken));

        var stored = new StoredSales(options.Database);
        foreach (var day in new[] { new DateOnly(2018, 2, 7), new DateOnly(2018, 2, 8), new DateOnly(2018, 2, 9) })
        {
            Assert.Equal(Tiny.TotalPurchases, await stored.CountPurchasesAsync(Tiny.Stores, day));
        }

        await using var connection = new MySqlConnection(options.Database);
        var entries = (await connection.QueryAsync<(int Purchases, byte[] Sales)>("SELECT purchases, sales FROM sales_ledger ORDER BY seq")).ToList();
        Assert.Equal(3 * Tiny.TotalPurchases, entries.Sum(entry => entry.Purchases));
        Assert.Equal(3 * 3, entries.Count); // 80 purchases a day in transactions of 30
        var lines = new List<SaleLine>();
        foreach (var entry in entries)
        {
            SalesLedgerEntry.Decode(entry.Sales, lines);
        }

        Assert.Equal(3 * Tiny.TotalPurchases * Tiny.ItemsPerPurchase, lines.Sum(line => (long)line.Quantity));
        Assert.Equal(await connection.ExecuteScalarAsync<long>("SELECT last_seq FROM ledger_head"), entries.Count);

        var history = new PurchaseHistory(Options.Create(new DatabaseOptions
        {
            ConnectionString = TestSettings.DatabaseAt(Database),
            User = TestSettings.Accounts.DatabaseWriter.User,
            Password = TestSettings.Accounts.DatabaseWriter.Password,
        }));
        var page = await history.AtStoreAsync(new PurchasesAtStore(1, new DateOnly(2018, 2, 8), null, 50), TestContext.Current.CancellationToken);
        Assert.Equal(Tiny.TotalPurchases / Tiny.Stores, page.Purchases.Length);
        Assert.All(page.Purchases, purchase => Assert.Equal(Tiny.ItemsPerPurchase, purchase.Items.Length));
    }

    /// <summary>A fill cut short, then a load test's purchases posted live with the same date, as many as one of the
    /// fill's transactions: counted as the fill's own, they made it skip a transaction it never stored (#57).</summary>
    [Fact]
    public async Task A_fill_that_goes_on_after_a_cut_counts_only_its_own_purchases_of_the_day()
    {
        const string database = Database + "_live";
        await TestDatabase.CreateMigratedAsync(database);
        var options = new HistoryFillOptions { Days = 1, PurchasesPerTransaction = 30, Chain = Tiny, Database = TestSettings.ConnectionString(database) };
        var day = new DateOnly(2018, 2, 9);
        var bulk = new HistoryBulkLoad(options.Database);
        await bulk.StoreAsync([.. HistoryDay.Purchases(Tiny, day).Take(30)], TestContext.Current.CancellationToken);
        var now = DateTimeOffset.UtcNow;
        await bulk.StoreAsync([.. Enumerable.Range(0, 30).Select(i =>
            new PurchaseRecorded(Guid.CreateVersion7(now), (i % Tiny.Stores) + 1, 7, day, [new PurchaseLine(1, 1)], now))], TestContext.Current.CancellationToken);

        Assert.Equal(0, await new HistoryFill(options, TextWriter.Null).RunAsync(TestContext.Current.CancellationToken));

        Assert.Equal(Tiny.TotalPurchases, await bulk.CountFilledAsync(Tiny.Stores, day));
        Assert.Equal(Tiny.TotalPurchases + 30, await new StoredSales(options.Database).CountPurchasesAsync(Tiny.Stores, day));
    }
}
