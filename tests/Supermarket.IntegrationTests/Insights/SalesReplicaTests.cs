using System.Globalization;
using System.Net;
using Supermarket.Contracts.Sales;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Insights;

/// <summary>
/// Two API replicas (as nginx balances them) asking a shard run by two replicas, one of which reads the ledger only
/// every two seconds (as one a busy machine holds back): while purchases are stored, no answer counts less than an
/// answer given before it, whichever API and whichever replica answer.
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class SalesReplicaTests(SupermarketSystem system) : IAsyncLifetime
{
    private const int Store = 476, Item = 74761;
    private static readonly TimeSpan Purchasing = TimeSpan.FromSeconds(8);

    private readonly List<RunningWorker> _replicas = [];
    private readonly List<SupermarketSystem.ApiFactory> _apis = [];
    private readonly List<HttpClient> _clients = [];

    public async ValueTask InitializeAsync()
    {
        foreach (var pollInterval in new[] { "00:00:00.050", "00:00:02" })
        {
            var replica = await SupermarketSystem.StartWorkerAsync(Worker.Aggregator, new Dictionary<string, string?>(TestSettings.For())
            {
                ["SalesShards:Count"] = "2",
                ["Aggregator:Shard"] = "2",
                ["Aggregator:LedgerPollInterval"] = pollInterval,
                ["Aggregator:IdleLedgerPollInterval"] = pollInterval,
            });
            _replicas.Add(replica);
            await SupermarketSystem.WaitUntilReadyAsync(replica);
        }

        for (var i = 0; i < 2; i++)
        {
            _apis.Add(new SupermarketSystem.ApiFactory(new Dictionary<string, string?>(TestSettings.For()) { ["SalesShards:Count"] = "2" }));
            _clients.Add(_apis[^1].CreateClient());
        }
    }

    [Fact]
    public async Task No_answer_counts_less_than_one_before_it_whichever_api_and_replica_answer()
    {
        using var stop = new CancellationTokenSource(Purchasing);
        var purchasing = Task.Run(async () =>
        {
            for (var customer = 476_000; !stop.IsCancellationRequested; customer++)
            {
                await Purchases.RecordAsync(system.Api, Store, customer, "20210101", (Item, 1));
            }
        });

        var answers = new List<(int Api, long CountedThrough)>();
        for (var asked = 0; !purchasing.IsCompleted; asked++)
        {
            var api = asked % 2;
            using var response = await _clients[api].GetAsync($"/items/top10/{Item}");
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            answers.Add((api, long.Parse(response.Headers.GetValues(ISalesAnswer.Header).Single(), CultureInfo.InvariantCulture)));
        }

        await purchasing;
        Assert.True(answers.Count >= 50, $"only {answers.Count} answers while purchases were stored");
        for (var i = 1; i < answers.Count; i++)
        {
            Assert.True(answers[i].CountedThrough >= answers[i - 1].CountedThrough,
                $"answer {i} (API {answers[i].Api + 1}) counted through ledger entry {answers[i].CountedThrough}, after answer {i - 1} (API {answers[i - 1].Api + 1}) had counted through {answers[i - 1].CountedThrough}");
        }
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var client in _clients)
        {
            client.Dispose();
        }

        foreach (var api in _apis)
        {
            await api.DisposeAsync();
        }

        foreach (var replica in _replicas)
        {
            await replica.DisposeAsync();
        }
    }
}
