using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Ingest;

/// <summary>Both delivery modes reach MySQL and the aggregator: persistent or transient (the seeds' main
/// experiment).</summary>
[Collection(nameof(SystemCollection))]
public sealed class DeliveryModeTests(SupermarketSystem system)
{
    [Theory]
    [InlineData(true, 4)]
    [InlineData(false, 6)]
    public async Task Every_delivery_mode_reaches_MySQL_and_the_aggregator(bool persistent, int store)
    {
        var settings = TestSettings.For(persistent);
        await using var api = new SupermarketSystem.ApiFactory(settings);
        using var client = api.CreateClient();
        await SupermarketSystem.WaitUntilReadyAsync(client);

        var id = await Purchases.RecordAsync(client, store, 4004, "20210102", (77, 2));

        var stored = await Eventually.UntilAsync(() => TestDatabase.FindAsync(id), found => found is not null);
        Assert.NotNull(stored);
        Assert.Equal([(77, 2)], stored.Lines);
        var counted = await Eventually.UntilAsync(() => InsightAnswers.TopStoresAsync(system.Api, 77), stores => stores.Contains((store, 2L)));
        Assert.Contains((store, 2L), counted);
    }
}
