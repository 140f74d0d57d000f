using System.Net;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Insights;

/// <summary>
/// A shard run by two replicas, one ready and one that cannot answer (here it can never read the ledger, as one loading
/// a checkpoint of gigabytes or rebuilding from a long ledger cannot yet): every question is answered by the ready one.
/// Before #57 the other consumed from its start and held about half the questions until they expired (503).
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class SalesReplicaReadinessTests : IAsyncLifetime
{
    private const int Item = 74762;
    private readonly List<RunningWorker> _replicas = [];
    private SupermarketSystem.ApiFactory _api = null!;
    private HttpClient _client = null!;

    public async ValueTask InitializeAsync()
    {
        var ready = await SupermarketSystem.StartWorkerAsync(Worker.Aggregator, Shard2Of2());
        _replicas.Add(ready);
        await SupermarketSystem.WaitUntilReadyAsync(ready);

        var settings = Shard2Of2();
        settings["Database:Password"] = "not-the-readers-password";
        _replicas.Add(await SupermarketSystem.StartWorkerAsync(Worker.Aggregator, settings));

        _api = new SupermarketSystem.ApiFactory(new Dictionary<string, string?>(TestSettings.For()) { ["SalesShards:Count"] = "2" });
        _client = _api.CreateClient();
    }

    [Fact]
    public async Task A_replica_that_cannot_answer_yet_takes_none_of_its_shards_questions()
    {
        // The second replica's bus is up (the start waited for it): had its questions' endpoint started with it, it
        // would take its share of these.
        var statuses = new List<HttpStatusCode>();
        for (var asked = 0; asked < 40; asked++)
        {
            using var response = await _client.GetAsync($"/items/top10/{Item}");
            statuses.Add(response.StatusCode);
        }

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

    private static Dictionary<string, string?> Shard2Of2() => new(TestSettings.For())
    {
        ["SalesShards:Count"] = "2",
        ["Aggregator:Shard"] = "2",
    };
}
