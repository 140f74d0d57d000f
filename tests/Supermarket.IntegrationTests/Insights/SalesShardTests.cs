using System.Net;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Insights;

/// <summary>
/// The sales matrix split in two shards (SalesShards:Count 2: items 1-50,000 and 50,001-100,000), the second with two
/// replicas, beside the system's single aggregator and following the same ledger: an API configured for the shards
/// answers what the single aggregator answers, a shard survives one replica's stop, and a shard that is down makes the
/// questions that need it 503 with Retry-After while the rest are answered, until it is back and exact.
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class SalesShardTests(SupermarketSystem system) : IAsyncLifetime
{
    private const int Store = 474;
    private const int FirstShardItem = 24741, SecondShardItem = 74741, OtherSecondShardItem = 74742;

    private readonly List<RunningWorker> _aggregators = [];
    private SupermarketSystem.ApiFactory _api = null!;
    private HttpClient _sharded = null!;

    public async ValueTask InitializeAsync()
    {
        _api = new SupermarketSystem.ApiFactory(new Dictionary<string, string?>(TestSettings.For()) { ["SalesShards:Count"] = "2" });
        _sharded = _api.CreateClient();
        foreach (var shard in new[] { 1, 2, 2 })
        {
            _aggregators.Add(await SupermarketSystem.StartShardAsync(shard, shards: 2));
        }
    }

    [Fact]
    public async Task Two_shards_answer_as_one_aggregator_through_a_replicas_stop_and_a_whole_shard_down()
    {
        await Purchases.RecordAsync(system.Api, Store, 474001, "20210101", (FirstShardItem, 3), (SecondShardItem, 5), (OtherSecondShardItem, 1));
        await Purchases.RecordAsync(system.Api, Store, 474002, "20210101", (FirstShardItem, 4));
        await Purchases.RecordAsync(system.Api, Store + 1, 475001, "20210101", (SecondShardItem, 9));
        (int, long)[] items = [(FirstShardItem, 7), (SecondShardItem, 5), (OtherSecondShardItem, 1)];
        (int, long)[] stores = [(Store + 1, 9), (Store, 5)];

        Assert.Equal(items, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(_sharded, Store), got => got.SequenceEqual(items)));
        Assert.Equal(items, await InsightAnswers.TopItemsAsync(system.Api, Store));
        Assert.Equal(stores, await Eventually.UntilAsync(() => InsightAnswers.TopStoresAsync(_sharded, SecondShardItem), got => got.SequenceEqual(stores)));

        // One of the second shard's two replicas stops: the other answers every question, none of them wrong.
        await _aggregators[2].StopAsync();
        for (var i = 0; i < 10; i++)
        {
            foreach (var path in new[] { $"/items/store/{Store}", $"/items/top10/{SecondShardItem}" })
            {
                Assert.Equal(HttpStatusCode.OK, (await _sharded.GetAsync(path)).StatusCode);
            }

            Assert.Equal(items, await InsightAnswers.TopItemsAsync(_sharded, Store));
            Assert.Equal(stores, await InsightAnswers.TopStoresAsync(_sharded, SecondShardItem));
        }

        // The whole first shard stops: a store's top items need it and are refused, an item of the other shard is not.
        await _aggregators[0].StopAsync();
        var refused = await _sharded.GetAsync($"/items/store/{Store}");
        Assert.Equal(HttpStatusCode.ServiceUnavailable, refused.StatusCode);
        Assert.Equal("application/problem+json", refused.Content.Headers.ContentType?.MediaType);
        Assert.NotNull(refused.Headers.RetryAfter);
        Assert.Contains("1-50000", await refused.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, (await _sharded.GetAsync($"/items/top10/{FirstShardItem}")).StatusCode);
        Assert.Equal(stores, await InsightAnswers.TopStoresAsync(_sharded, SecondShardItem));

        // Back, from its checkpoint or the ledger: exact again, with what was stored meanwhile.
        await Purchases.RecordAsync(system.Api, Store, 474003, "20210101", (FirstShardItem, 1));
        _aggregators.Add(await SupermarketSystem.StartShardAsync(1, shards: 2));
        (int, long)[] after = [(FirstShardItem, 8), (SecondShardItem, 5), (OtherSecondShardItem, 1)];
        Assert.Equal(after, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(_sharded, Store), got => got.SequenceEqual(after)));
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var aggregator in _aggregators)
        {
            await aggregator.DisposeAsync();
        }

        _sharded.Dispose();
        await _api.DisposeAsync();
    }
}
