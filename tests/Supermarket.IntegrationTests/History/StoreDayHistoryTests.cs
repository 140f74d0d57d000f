using System.Text.Json;
using Dapper;
using MySqlConnector;
using Supermarket.Contracts.Purchases;
using Supermarket.Database.History;
using Supermarket.Database.LoadTest;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.History;

/// <summary>A store's day is read a page at a time through the index on (store_id, purchase_date, received_at), in a
/// database of its own: a page is one ordered range read that stops at its end, with the parameters the writer sends,
/// whatever the day holds. (Sent as a DATETIME, a day compared with the DATE column made MariaDB sort the whole day
/// for each page: 22-214 ms a page on days of 6,000-165,000 purchases, and history questions past their 2 s deadline.)</summary>
public sealed class StoreDayHistoryTests
{
    private const string Database = TestSettings.DatabaseName + "_store_history";
    private const int Store = 7;
    private const int PurchasesThatDay = 400;
    private static readonly DateOnly Day = new(2026, 11, 27);

    [Fact]
    public async Task A_stores_day_is_read_in_the_index_order_and_a_page_stops_at_its_end()
    {
        await StoreAsync();
        const int limit = 51;
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString(Database));
        var analyzed = await connection.QuerySingleAsync<string>("ANALYZE FORMAT=JSON " + PurchaseHistory.StoreFirstPage,
            PurchaseHistory.Parameters(Store, Day, Day, after: null, months: null, limit));

        // A sort reads every purchase of the day before the first row of the page.
        Assert.DoesNotContain("filesort", analyzed, StringComparison.Ordinal);
        using var plan = JsonDocument.Parse(analyzed);
        var table = Assert.Single(plan.RootElement.GetProperty("query_block").GetProperty("nested_loop").EnumerateArray()).GetProperty("table");
        Assert.Equal("ix_purchases_store_day", table.GetProperty("key").GetString());
        Assert.Equal(limit, table.GetProperty("r_rows").GetDouble());
    }

    private static async Task StoreAsync()
    {
        await TestDatabase.CreateMigratedAsync(Database);
        var received = DateTimeOffset.UtcNow;
        // The store's day, and its neighbours in the index: the store's days before and after (more of them than of
        // the day, as in a store's history), and the next store's day.
        var purchases = Enumerable.Range(0, PurchasesThatDay).Select(i => (Store, Day, i))
            .Concat(Enumerable.Range(0, PurchasesThatDay).Select(i => (Store, Day.AddDays(-1 - (i % 3)), i)))
            .Concat(Enumerable.Range(0, PurchasesThatDay).Select(i => (Store, Day.AddDays(1 + (i % 3)), i)))
            .Concat(Enumerable.Range(0, 20).Select(i => (Store + 1, Day, i)))
            .Select(p => new PurchaseRecorded(Guid.CreateVersion7(received.AddMilliseconds(p.i)), p.Item1, (p.Item1 * 1000) + (p.i % 50), p.Item2,
                [new PurchaseLine(1 + (p.i % 10), 1)], received.AddMilliseconds(p.i)))
            .ToList();
        await new HistoryBulkLoad(TestSettings.ConnectionString(Database)).StoreAsync(purchases, TestContext.Current.CancellationToken);
    }
}
