using System.Net;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Insights;

/// <summary>The insight endpoints, end to end: POST → fanout → writer → MySQL → Sales aggregator → request/response → GET.
/// Each test uses stores and items of its own, so their counts are exactly what the test posted.</summary>
[Collection(nameof(SystemCollection))]
public sealed class SalesInsightTests(SupermarketSystem system)
{
    [Fact]
    public async Task Both_endpoints_rank_what_was_posted()
    {
        // Store 301 sells items 90001..90012 in rising amounts; item 90001 also sells at stores 302..307.
        for (var i = 1; i <= 12; i++)
        {
            await Purchases.RecordAsync(system.Api, 301, 301000 + i, "20210101", (90000 + i, i));
        }

        for (var store = 302; store <= 307; store++)
        {
            await Purchases.RecordAsync(system.Api, store, store * 1000, "20210101", (90001, store - 300), (90013, 1));
        }

        (int, long)[] expectedItems = [.. Enumerable.Range(3, 10).Reverse().Select(i => (90000 + i, (long)i))];
        var items = await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, 301), got => got.SequenceEqual(expectedItems));
        Assert.Equal(expectedItems, items);

        (int, long)[] expectedStores = [(307, 7), (306, 6), (305, 5), (304, 4), (303, 3)];
        var stores = await Eventually.UntilAsync(() => InsightAnswers.TopStoresAsync(system.Api, 90001), got => got.SequenceEqual(expectedStores));
        Assert.Equal(expectedStores, stores);
        Assert.Equal(expectedStores, await InsightAnswers.TopStoresAsync(system.Api, 90001, path: "top5"));

        // Ties break by the lower store id.
        (int, long)[] tied = [(302, 1), (303, 1), (304, 1), (305, 1), (306, 1)];
        Assert.Equal(tied, await Eventually.UntilAsync(() => InsightAnswers.TopStoresAsync(system.Api, 90013), got => got.SequenceEqual(tied)));
    }

    [Fact]
    public async Task No_sales_is_an_empty_list_and_bad_ids_are_400()
    {
        Assert.Empty(await InsightAnswers.TopItemsAsync(system.Api, 511));
        Assert.Empty(await InsightAnswers.TopStoresAsync(system.Api, 99999));

        foreach (var path in new[] { "/items/store/0", "/items/store/513", "/items/store/x", "/items/top10/0", "/items/top10/100001", "/items/top5/abc" })
        {
            var response = await system.Api.GetAsync(path);
            Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        }
    }

    [Fact]
    public async Task After_an_aggregator_restart_every_purchase_counts_exactly_once()
    {
        const int store = 401;
        var expected = new Dictionary<int, long>();
        async Task Post(int customer, params (int Item, int Quantity)[] items)
        {
            await Purchases.RecordAsync(system.Api, store, customer, "20210101", items);
            foreach (var (item, quantity) in items)
            {
                expected[item] = expected.GetValueOrDefault(item) + quantity;
            }
        }

        await Post(401001, (80001, 5), (80002, 3));
        await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, store), got => got.Length == 2);

        await system.StopStoreAsync();
        // While the aggregator is down, these wait in its queue and are also written to MySQL: on restart they are
        // in both places, and must still count once.
        for (var i = 0; i < 5; i++)
        {
            await Post(401100 + i, (80003, 2), (80001, 1));
        }

        await Eventually.UntilAsync(() => CountStoredAsync(store), count => count == 6);
        await system.StartStoreAsync();
        await Post(401200, (80004, 4));

        var truth = expected.OrderByDescending(e => e.Value).ThenBy(e => e.Key).Select(e => (e.Key, e.Value)).ToArray();
        var items = await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, store), got => got.SequenceEqual(truth));
        Assert.Equal(truth, items);
        // And it stays right once the queue has drained: nothing arrives later to count twice.
        await Task.Delay(TimeSpan.FromSeconds(1));
        Assert.Equal(truth, await InsightAnswers.TopItemsAsync(system.Api, store));
    }

    [Fact]
    public async Task The_aggregator_counts_only_what_the_writer_stored_so_losing_it_loses_no_count()
    {
        const int store = 421;
        await Purchases.RecordAsync(system.Api, store, 421001, "20210101", (82001, 1));
        (int, long)[] before = [(82001, 1)];
        Assert.Equal(before, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, store), got => got.SequenceEqual(before)));

        await system.StopWriterAsync();
        try
        {
            for (var i = 0; i < 3; i++)
            {
                await Purchases.RecordAsync(system.Api, store, 421100 + i, "20210101", (82002, 2));
            }

            // Accepted and queued for the writer, but not stored: not counted yet.
            await Task.Delay(TimeSpan.FromSeconds(1));
            Assert.Equal(before, await InsightAnswers.TopItemsAsync(system.Api, store));

            // The aggregator is lost and replaced while the writer is behind; nothing it had counted is lost.
            await system.StopStoreAsync();
            await system.StartStoreAsync();
        }
        finally
        {
            await system.StartWriterAsync();
        }

        (int, long)[] after = [(82002, 6), (82001, 1)];
        Assert.Equal(after, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, store), got => got.SequenceEqual(after)));
        await Task.Delay(TimeSpan.FromSeconds(1));
        Assert.Equal(after, await InsightAnswers.TopItemsAsync(system.Api, store));
    }

    [Fact]
    public Task With_the_aggregator_down_a_GET_fails_promptly_with_504() =>
        WorkerAway.AssertPromptGatewayTimeoutAsync(system, system.StopStoreAsync, system.StartStoreAsync, "/items/store/1");

    private static async Task<long> CountStoredAsync(int store)
    {
        await using var connection = new MySqlConnector.MySqlConnection(TestSettings.ConnectionString());
        return await Dapper.SqlMapper.ExecuteScalarAsync<long>(connection, "SELECT COUNT(*) FROM purchases WHERE store_id = @store", new { store });
    }
}
