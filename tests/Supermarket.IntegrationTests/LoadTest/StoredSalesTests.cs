extern alias LoadTest;

using System.Text.Json.Nodes;
using Dapper;
using LoadTest::Supermarket.LoadTest.History;
using MySqlConnector;
using Supermarket.Database.LoadTest;
using Supermarket.IntegrationTests.Infrastructure;
using Chain = LoadTest::Supermarket.LoadTest.LoadOptions;

namespace Supermarket.IntegrationTests.LoadTest;

/// <summary>The load test's reader of what was stored, on MariaDB: counting a run's day reads that day's index
/// entries alone, however much history its stores hold (issue #45: at 50 million purchases a range of stores read
/// them all, twice a run).</summary>
public sealed class StoredSalesTests
{
    private const string Database = TestSettings.DatabaseName + "_stored_sales";
    private static readonly Chain Tiny = new() { Stores = 4, PurchasesPerHour = 10, Hours = 2, Date = "20180310" };

    [Fact]
    public async Task A_runs_purchases_are_read_from_its_day_alone()
    {
        await TestDatabase.CreateMigratedAsync(Database);
        var day = new DateOnly(2018, 3, 9);
        var bulk = new HistoryBulkLoad(TestSettings.ConnectionString(Database));
        foreach (var date in new[] { day.AddDays(-2), day.AddDays(-1), day, day.AddDays(1) })
        {
            await bulk.StoreAsync([.. HistoryDay.Purchases(Tiny, date)], TestContext.Current.CancellationToken);
        }

        var stored = new StoredSales(TestSettings.ConnectionString(Database));
        Assert.Equal(Tiny.TotalPurchases, await stored.CountPurchasesAsync(Tiny.Stores, day));
        Assert.Equal(Tiny.TotalPurchases, (await stored.PurchaseIdsAsync(Tiny.Stores, day)).Count);

        // What the server read to answer, from its own account of the statement (ANALYZE runs it).
        await using var connection = new MySqlConnection(TestSettings.ConnectionString(Database));
        var plan = JsonNode.Parse(await connection.ExecuteScalarAsync<string>(
            $"ANALYZE FORMAT=JSON SELECT COUNT(*) FROM {StoredSales.RunPurchases}", StoredSales.RunParameters(Tiny.Stores, day)) ?? "{}");
        var rowsRead = plan!["query_block"]!["nested_loop"]![0]!["table"]!["r_rows"]!.GetValue<double>();
        Assert.Equal(Tiny.TotalPurchases, (long)rowsRead);
    }

    [Fact]
    public async Task The_buffer_pools_counters_count_what_a_question_asks_of_it()
    {
        await TestDatabase.CreateMigratedAsync(Database);
        var stored = new StoredSales(TestSettings.ConnectionString(Database));
        var before = await stored.BufferPoolCountersAsync();

        await stored.CountPurchasesAsync(Tiny.Stores, new DateOnly(2018, 3, 9));
        var after = await stored.BufferPoolCountersAsync();

        Assert.True(after.PagesRequested > before.PagesRequested, $"pages asked of the pool: {before.PagesRequested} then {after.PagesRequested}");
        Assert.True(after.PagesRead >= before.PagesRead && after.PagesWritten >= before.PagesWritten);
    }
}
