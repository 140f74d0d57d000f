extern alias Aggregator;

using Aggregator::Supermarket.SalesAggregator;
using Aggregator::Supermarket.SalesAggregator.Counting;
using Aggregator::Supermarket.SalesAggregator.Questions;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.IntegrationTests.Infrastructure;
using Supermarket.SalesCounting;
using Supermarket.Tests.Shared;

namespace Supermarket.IntegrationTests.Exactness;

/// <summary>
/// The aggregator follows the sales ledger by what MySQL holds, never by a clock: an entry that commits after a stall
/// of any length is counted, a rolled-back transaction holds nothing back, and a ledger restored from a backup is
/// noticed and counted again. Each test runs an aggregator of its own and reads its matrix. (The first two failed on
/// the AUTO_INCREMENT ledger with its gap timeout: the late entry was given up after the timeout, and seventy
/// rolled-back seqs held Sales-Counted-Through back for five minutes and hid the entries behind them.)
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class LedgerFollowingTests(SupermarketSystem system)
{
    /// <summary>A stall between a transaction's INSERT and its COMMIT. The aggregator has no timeout it could outlast;
    /// the one it had (its gap timeout) was set to 2 s when this test failed on the old ledger.</summary>
    private static readonly TimeSpan Stall = TimeSpan.FromSeconds(8);

    [Fact]
    public async Task A_ledger_entry_that_commits_after_a_long_stall_is_counted()
    {
        const int store = 489, item = 99901;
        await using var aggregator = await StartAggregatorAsync("stall");
        var matrix = aggregator.Services.GetRequiredService<SalesMatrix>();
        await using (var late = await LedgerTransaction.BeginAsync(store, item, 5))
        {
            // A later purchase, acknowledged while the first transaction stalls between its INSERT and its COMMIT.
            await Purchases.RecordAsync(system.Api, store, 489_001, "20210302", (item, 3));
            await Task.Delay(Stall);
            await late.CommitAsync();
        }

        var counted = await Eventually.UntilAsync(() => Task.FromResult(matrix.UnitsSold(store, item)), units => units == 8, TimeSpan.FromSeconds(60));
        Assert.Equal(8, counted);
        Assert.Equal([(item, 8L)], await TestDatabase.TopItemsAsync(store));
    }

    [Fact]
    public async Task Rolled_back_transactions_hold_nothing_back()
    {
        const int store = 488, item = 99902;
        await using var aggregator = await StartAggregatorAsync("rollbacks");
        var matrix = aggregator.Services.GetRequiredService<SalesMatrix>();
        var readiness = aggregator.Services.GetRequiredService<MatrixReadiness>();
        for (var i = 0; i < 70; i++)
        {
            await LedgerTransaction.RollBackAsync();
        }

        await Purchases.RecordAsync(system.Api, store, 488_001, "20210302", (item, 4));
        var counted = await Eventually.UntilAsync(() => Task.FromResult(matrix.UnitsSold(store, item)), units => units == 4, TimeSpan.FromSeconds(60));
        Assert.Equal(4, counted);
        var last = await TestDatabase.CountAsync("SELECT MAX(seq) FROM sales_ledger");
        var through = await Eventually.UntilAsync(() => Task.FromResult(readiness.CountedThrough), seq => seq >= last, TimeSpan.FromSeconds(60));
        Assert.True(through >= last, $"counted through {through}, the ledger's last entry is {last}");
    }

    [Fact]
    public async Task A_database_restored_from_a_backup_is_noticed_and_the_matrix_rebuilt_to_equal_it()
    {
        const int store = 487, item = 99903;
        await using var aggregator = await StartAggregatorAsync("restore");
        var matrix = aggregator.Services.GetRequiredService<SalesMatrix>();
        await Purchases.RecordAsync(system.Api, store, 487_001, "20210303", (item, 2));
        await Eventually.UntilAsync(() => Task.FromResult(matrix.UnitsSold(store, item)), units => units == 2, TimeSpan.FromSeconds(60));
        var backup = await TestDatabase.CountAsync("SELECT MAX(seq) FROM sales_ledger");

        // Sold and counted after the backup, then lost with the restore.
        await Purchases.RecordAsync(system.Api, store, 487_002, "20210303", (item, 5));
        await Eventually.UntilAsync(() => Task.FromResult(matrix.UnitsSold(store, item)), units => units == 7, TimeSpan.FromSeconds(60));
        await TestDatabase.ExecuteAsync($"""
            DELETE FROM purchases WHERE store_id = {store} AND customer_id = 487002;
            DELETE FROM sales_ledger WHERE seq > {backup};
            UPDATE ledger_head SET last_seq = {backup};
            """);

        // The restored database's next entry takes the seq the lost one had.
        await Purchases.RecordAsync(system.Api, store, 487_003, "20210303", (item, 1));
        var counted = await Eventually.UntilAsync(() => Task.FromResult(matrix.UnitsSold(store, item)), units => units == 3, TimeSpan.FromSeconds(60));
        Assert.Equal(3, counted);
        Assert.Equal([(item, 3L)], await TestDatabase.TopItemsAsync(store));
    }

    private static async Task<RunningWorker> StartAggregatorAsync(string checkpoints)
    {
        var settings = TestSettings.For();
        settings["Aggregator:CheckpointDirectory"] = Path.Combine(TestSettings.CheckpointDirectory, checkpoints);
        var aggregator = await SupermarketSystem.StartWorkerAsync(Worker.Aggregator, settings);
        await aggregator.Services.GetRequiredService<MatrixReadiness>().Ready.WaitAsync(TimeSpan.FromSeconds(60));
        return aggregator;
    }
}
