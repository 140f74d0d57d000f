using Microsoft.Playwright;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Live;

/// <summary>
/// The live page of an API that asks two sales shards (SalesShards:Count 2: items 1-50,000 and 50,001-100,000), in
/// Debian's chromium: with the first shard stopped, a store's top items (which need every shard) show as away, naming
/// the shard's items, while an item of the second shard stays current; the chain counts one shard of two answering; once
/// the shard is back, both are current again. Store 469 and its items are this test's own.
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class LivePageShardTests(SupermarketSystem system) : IAsyncLifetime
{
    private const int Store = 469;
    private const int FirstShardItem = 24769, SecondShardItem = 74769;

    private readonly RunningWorker?[] _shards = new RunningWorker?[2];
    private SupermarketSystem.ApiFactory _api = null!;
    private Uri _address = null!;

    public async ValueTask InitializeAsync()
    {
        _api = new SupermarketSystem.ApiFactory(new Dictionary<string, string?>(TestSettings.For()) { ["SalesShards:Count"] = "2" });
        _api.UseKestrel(0);
        _api.StartServer();
        using var client = _api.CreateClient();
        _address = client.BaseAddress!;
        await SupermarketSystem.WaitUntilReadyAsync(client);
        for (var shard = 1; shard <= 2; shard++)
        {
            _shards[shard - 1] = await SupermarketSystem.StartShardAsync(shard, shards: 2);
        }
    }

    [Fact]
    public async Task One_shard_of_two_stopped_shows_the_questions_that_need_it_as_away_and_the_others_current()
    {
        await Purchases.RecordAsync(system.Api, Store, 469_001, "20210101", (FirstShardItem, 2), (SecondShardItem, 5));
        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Chromium.LaunchAsync(playwright);
        var page = await LivePage.OpenAsync(browser, _address, Store, SecondShardItem);
        await Assertions.Expect(LivePage.Units(page.Store, SecondShardItem)).ToHaveTextAsync("5", new() { Timeout = 30_000 });
        await Assertions.Expect(LivePage.Units(page.Item, Store)).ToHaveTextAsync("5", new() { Timeout = 30_000 });
        await Assertions.Expect(page.Shards).ToContainTextAsync("2 of 2", new() { Timeout = 30_000 });

        await _shards[0]!.DisposeAsync();
        _shards[0] = null;
        await LivePage.ExpectNotCurrentAsync(page.Store, "1-50000", 15_000);
        await LivePage.ExpectCurrentAsync(page.Item, 1_000);
        await Assertions.Expect(LivePage.Units(page.Store, FirstShardItem)).ToHaveTextAsync("2");

        _shards[0] = await SupermarketSystem.StartShardAsync(1, shards: 2);
        await LivePage.ExpectCurrentAsync(page.Store, 30_000);
        await Assertions.Expect(LivePage.Units(page.Store, FirstShardItem)).ToHaveTextAsync("2");
        await Assertions.Expect(page.Shards).ToContainTextAsync("2 of 2", new() { Timeout = 30_000 });
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var shard in _shards)
        {
            if (shard is not null)
            {
                await shard.DisposeAsync();
            }
        }

        await _api.DisposeAsync();
    }
}
