extern alias Aggregator;

using System.Net;
using System.Text;
using Aggregator::Supermarket.SalesAggregator.Counting;
using Aggregator::Supermarket.SalesAggregator.Questions;
using Dapper;
using Microsoft.Extensions.DependencyInjection;
using MySqlConnector;
using Supermarket.Contracts.Sales;
using Supermarket.Database;
using Supermarket.Database.Ledger;
using Supermarket.Database.Purchases;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Insights;

/// <summary>
/// A shard run by two replicas, one ready and one that holds questions (it reads a backlog an entry at a time) when
/// its rebuild begins (the entries it counted are stored otherwise now, as after a restore), a rebuild that outlasts
/// them: every question is answered, by the ready one. Before #72 the rebuilding replica held its share until the
/// rebuild ended, and they expired (503).
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class SalesReplicaRebuildTests : IAsyncLifetime
{
    private const int Store = 466, Item = 74762, BacklogItem = 74763, Backlog = 20_000;
    private readonly List<RunningWorker> _replicas = [];
    private SupermarketSystem.ApiFactory _api = null!;
    private HttpClient _client = null!;

    public async ValueTask InitializeAsync()
    {
        var slow = Shard2Of2("slow");
        // An entry a read: its backlog, and its rebuild, take many seconds.
        slow["Aggregator:LedgerPageSize"] = "1";
        foreach (var settings in new[] { slow, Shard2Of2("ready") })
        {
            var replica = await SupermarketSystem.StartWorkerAsync(Worker.Aggregator, settings);
            _replicas.Add(replica);
            await SupermarketSystem.WaitUntilReadyAsync(replica);
        }

        _api = new SupermarketSystem.ApiFactory(new Dictionary<string, string?>(TestSettings.For()) { ["SalesShards:Count"] = "2" });
        _client = _api.CreateClient();
    }

    [Fact]
    public async Task Questions_held_by_a_replica_when_its_rebuild_begins_are_answered_by_the_ready_one()
    {
        var (slow, ready) = (_replicas[0].Services.GetRequiredService<MatrixReadiness>(), _replicas[1].Services.GetRequiredService<MatrixReadiness>());
        await AppendBacklogAsync();
        var last = await TestDatabase.CountAsync("SELECT MAX(seq) FROM sales_ledger");
        var caughtUp = await Eventually.UntilAsync(() => Task.FromResult(ready.CountedThrough), seq => seq >= last, TimeSpan.FromSeconds(60));
        Assert.True(caughtUp >= last, $"the ready replica counted through {caughtUp} of {last}");
        Assert.True(slow.CountedThrough < last, "the slow replica read its backlog before the questions came");

        var questions = Enumerable.Range(0, 40).Select(async _ =>
        {
            using var response = await _client.GetAsync($"/items/top10/{Item}");
            return response.StatusCode;
        }).ToArray();
        // The slow replica takes its share and holds them; then every entry it counted is stored otherwise, the ready
        // one's last excepted: the slow one's next read begins a rebuild, the ready one's finds its entry as counted.
        await Task.Delay(TimeSpan.FromMilliseconds(300));
        var rebuilds = slow.Rebuilds;
        await TestDatabase.ExecuteAsync($"UPDATE sales_ledger SET stored_at = stored_at - INTERVAL 1 SECOND WHERE seq < {last}");

        var statuses = await Task.WhenAll(questions);
        Assert.True(slow.Rebuilds > rebuilds, "the slow replica did not begin a rebuild");
        Assert.Equal(0, ready.Rebuilds);
        Assert.All(statuses, status => Assert.Equal(HttpStatusCode.OK, status));
    }

    public async ValueTask DisposeAsync()
    {
        _client.Dispose();
        await _api.DisposeAsync();
        foreach (var replica in _replicas)
        {
            await replica.DisposeAsync();
        }
    }

    /// <summary>Purchases of the store and their ledger entries, one a transaction's worth each, committed together.</summary>
    private static async Task AppendBacklogAsync()
    {
        await using var connection = new MySqlConnection(TestSettings.ConnectionString());
        await connection.OpenAsync();
        await using var transaction = await connection.BeginTransactionAsync();
        var sales = SalesLedgerEntry.Encode([new SaleLine(Store, BacklogItem, 1, new DateOnly(2021, 3, 5))]);
        const int perBatch = 200;
        for (var first = 0; first < Backlog; first += perBatch)
        {
            var sql = new StringBuilder();
            var parameters = new DynamicParameters(new { items = $"[[{BacklogItem},1]]", sales, purchases = 1, store = Store });
            for (var i = 0; i < perBatch; i++)
            {
                sql.Append($"INSERT INTO purchases (id, store_id, customer_id, purchase_date, received_at, items) VALUES (@id{i}, @store, 466000, '2021-03-05', UTC_TIMESTAMP(6), @items);");
                sql.Append(SalesLedgerAppend.Sql);
                parameters.Add($"id{i}", PurchaseKeys.ToKey(Guid.CreateVersion7()));
            }

            await connection.ExecuteAsync(sql.ToString(), parameters, transaction);
        }

        await transaction.CommitAsync();
    }

    private static Dictionary<string, string?> Shard2Of2(string checkpoints) => new(TestSettings.For())
    {
        ["SalesShards:Count"] = "2",
        ["Aggregator:Shard"] = "2",
        ["Aggregator:CheckpointDirectory"] = Path.Combine(TestSettings.CheckpointDirectory, $"replica-rebuild-{checkpoints}"),
    };
}
