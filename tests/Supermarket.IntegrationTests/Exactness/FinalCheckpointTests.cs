extern alias Aggregator;

using System.Text;
using Aggregator::Supermarket.SalesAggregator.Checkpoints;
using Aggregator::Supermarket.SalesAggregator.Counting;
using Aggregator::Supermarket.SalesAggregator.Ledger;
using Aggregator::Supermarket.SalesAggregator.Questions;
using Aggregator::Supermarket.SalesAggregator.Sharding;
using Dapper;
using Microsoft.Extensions.DependencyInjection;
using MySqlConnector;
using Supermarket.Contracts.Sales;
using Supermarket.Database;
using Supermarket.Database.Ledger;
using Supermarket.Database.Purchases;
using Supermarket.IntegrationTests.Infrastructure;
using Supermarket.Messaging;
using Supermarket.SalesCounting;
using Supermarket.Tests.Shared;

namespace Supermarket.IntegrationTests.Exactness;

/// <summary>
/// The checkpoint an aggregator saves as it stops holds exactly the ledger entries through the position it records,
/// even when the stop comes with its time already spent (the questions' endpoint had used the host's whole shutdown
/// timeout waiting for a broker that was down). Found (#72): the feed's stop copied the matrix while its loop still
/// applied entries, and the restart counted again, for good, what the copy held beyond its position.
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class FinalCheckpointTests
{
    private const int Store = 467;
    private const int Entries = 3_000;
    // A purchase's most lines, spread over the catalog: applying a page of such entries takes milliseconds.
    private static readonly int[] Items = [.. Enumerable.Range(0, 100).Select(k => 1 + (k * 997))];

    [Fact]
    public async Task A_checkpoint_saved_by_a_stop_whose_time_is_up_holds_exactly_the_entries_through_its_position()
    {
        var questions = Topology.SalesQuestionsQueue(1, 1);
        var consumersBefore = (await BrokerAdministrator.ConsumersAsync()).GetValueOrDefault(questions);
        // A stop lands at a different point of the catch-up each time; one torn checkpoint is enough to fail.
        for (var stop = 0; stop < 3; stop++)
        {
            var settings = TestSettings.For();
            settings["Aggregator:CheckpointDirectory"] = Path.Combine(TestSettings.CheckpointDirectory, $"stopped-in-time-{stop}");
            await using var aggregator = await SupermarketSystem.StartWorkerAsync(Worker.Aggregator, settings);
            await aggregator.Services.GetRequiredService<MatrixReadiness>().Ready.WaitAsync(TimeSpan.FromSeconds(60));
            var matrix = aggregator.Services.GetRequiredService<SalesMatrix>();
            var before = matrix.UnitsSold(Store, Items[0]);

            await AppendAtOnceAsync(Entries);
            // Stopped as soon as the first new line is counted: while the feed applies the first page of them.
            var waiting = System.Diagnostics.Stopwatch.StartNew();
            while (matrix.UnitsSold(Store, Items[0]) == before && waiting.Elapsed < TimeSpan.FromSeconds(30))
            {
                Thread.Yield();
            }

            Assert.True(matrix.UnitsSold(Store, Items[0]) > before, "the aggregator did not begin counting the new entries within 30 s");
            try
            {
                await aggregator.StopAsync(new CancellationToken(canceled: true));
            }
            catch (Exception exception) when (exception is OperationCanceledException or AggregateException)
            {
                // The bus's stop, given no time, says so; the feed's is what is tested.
            }

            // The questions' endpoint stopped for real, though the bus's stop had no time: one left consuming takes the
            // shard's sales questions and never answers them (it made other tests' questions 504 after this one).
            var consumersAfter = await Eventually.UntilAsync(
                async () => (await BrokerAdministrator.ConsumersAsync()).GetValueOrDefault(questions), count => count <= consumersBefore, TimeSpan.FromSeconds(10));
            Assert.True(consumersAfter <= consumersBefore,
                $"stop {stop}: the stopped aggregator still consumes {questions} ({consumersAfter} consumers, {consumersBefore} before it started): it takes the system's sales questions and never answers them");

            var ledgerId = (await aggregator.Services.GetRequiredService<ISalesLedger>().IdentityAsync(CancellationToken.None)).Id;
            var saved = aggregator.Services.GetRequiredService<SalesShard>().NewMatrix();
            var position = aggregator.Services.GetRequiredService<SalesCheckpoint>().TryLoad(ledgerId, saved, aggregator.Services.GetRequiredService<SalesShard>().NewDays(400))?.Position;
            Assert.NotNull(position);
            var expected = await LedgerSumsThroughAsync(position.Value.Seq);
            foreach (var item in Items)
            {
                Assert.True(expected[item] == saved.UnitsSold(Store, item),
                    $"stop {stop}: the checkpoint at ledger entry {position.Value.Seq} holds {saved.UnitsSold(Store, item)} units of item {item}, the ledger through it {expected[item]}");
            }
        }
    }

    /// <summary>Purchases of the store and their ledger entries, one entry each, committed together: they become
    /// readable at once, as a backlog does after a stall.</summary>
    private static async Task AppendAtOnceAsync(int entries)
    {
        await using var connection = new MySqlConnection(TestSettings.ConnectionString());
        await connection.OpenAsync();
        await using var transaction = await connection.BeginTransactionAsync();
        var items = $"[{string.Join(',', Items.Select(item => $"[{item},1]"))}]";
        var sales = SalesLedgerEntry.Encode(Items.Select(item => new SaleLine(Store, item, 1, new DateOnly(2021, 3, 4))));
        const int perBatch = 100;
        for (var first = 0; first < entries; first += perBatch)
        {
            var sql = new StringBuilder();
            var parameters = new DynamicParameters(new { items, sales, purchases = 1, store = Store });
            for (var i = 0; i < perBatch; i++)
            {
                sql.Append($"INSERT INTO purchases (id, store_id, customer_id, purchase_date, received_at, items) VALUES (@id{i}, @store, 467000, '2021-03-04', UTC_TIMESTAMP(6), @items);");
                sql.Append(SalesLedgerAppend.Sql);
                parameters.Add($"id{i}", PurchaseKeys.ToKey(Guid.CreateVersion7()));
            }

            await connection.ExecuteAsync(sql.ToString(), parameters, transaction);
        }

        await transaction.CommitAsync();
    }

    /// <summary>Units of the store's items in the ledger's entries up to <paramref name="seq"/>, from MySQL's rows.</summary>
    private static async Task<Dictionary<int, long>> LedgerSumsThroughAsync(long seq)
    {
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString());
        var sums = Items.ToDictionary(item => item, _ => 0L);
        var lines = new List<SaleLine>();
        foreach (var sales in await connection.QueryAsync<byte[]>("SELECT sales FROM sales_ledger WHERE seq <= @seq", new { seq }))
        {
            lines.Clear();
            SalesLedgerEntry.Decode(sales, lines);
            foreach (var line in lines.Where(line => line.StoreId == Store && sums.ContainsKey(line.ItemId)))
            {
                sums[line.ItemId] += line.Quantity;
            }
        }

        return sums;
    }
}
