extern alias LoadTest;

using LoadTest::Supermarket.LoadTest.History;
using MySqlConnector;
using Supermarket.Database.LoadTest;
using Supermarket.IntegrationTests.Infrastructure;
using Chain = LoadTest::Supermarket.LoadTest.LoadOptions;

namespace Supermarket.IntegrationTests.LoadTest;

/// <summary>
/// The load test reads MySQL while a day runs (its live view, the report's buffer pool), and a chaos day restarts
/// MariaDB under it. MySqlConnector lets the socket's own exception through when a connection is lost while it reads
/// rows: each reading must take that for the database being away (<see cref="DatabaseOutage"/>), or the day dies
/// without a report, as a CI run's mariadb-restart in containers most likely did.
/// </summary>
public sealed class LostConnectionTests
{
    private const string Database = TestSettings.DatabaseName + "_lost_connection";

    /// <summary>A day of 20,000 purchases: its ids are some 400 KB of rows, so a cut after 64 KB is mid-rows.</summary>
    private static readonly Chain Day = new() { Stores = 50, PurchasesPerHour = 40, Hours = 10, Date = "20180310" };

    private const int ServerBytesBeforeTheCut = 64 * 1024;

    [Fact]
    public async Task A_reading_whose_connection_is_lost_mid_rows_is_the_database_away()
    {
        await TestDatabase.CreateMigratedAsync(Database);
        var date = new DateOnly(2018, 3, 10);
        var direct = TestSettings.ConnectionString(Database);
        await new HistoryBulkLoad(direct).StoreAsync([.. HistoryDay.Purchases(Day, date)], TestContext.Current.CancellationToken);
        Assert.Equal(Day.TotalPurchases, (await new StoredSales(direct).PurchaseIdsAsync(Day.Stores, date)).Count);

        var server = new MySqlConnectionStringBuilder(direct);
        await using var cut = new ConnectionCut(server.Server, (int)server.Port, ServerBytesBeforeTheCut);
        var throughTheCut = new MySqlConnectionStringBuilder(direct) { Server = "127.0.0.1", Port = (uint)cut.Port, Pooling = false };
        var lost = await Record.ExceptionAsync(() => new StoredSales(throughTheCut.ConnectionString).PurchaseIdsAsync(Day.Stores, date));

        // Cut mid-rows: the socket's own exception, not one MySqlConnector raised (that would say the cut came elsewhere).
        Assert.NotNull(lost);
        Assert.False(lost is MySqlException, $"not cut mid-rows: {lost}");
        Assert.True(DatabaseOutage.Explains(lost), $"not taken for the database away: {lost}");
    }
}
