using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Ingest;

/// <summary>Every way of publishing reaches MySQL and the aggregator: persistent or transient delivery (the seeds'
/// main experiment), grouped or one message per purchase.</summary>
[Collection(nameof(SystemCollection))]
public sealed class DeliveryModeTests(SupermarketSystem system)
{
    [Theory]
    [InlineData(true, true, 4)]
    [InlineData(false, true, 6)]
    [InlineData(true, false, 7)]
    [InlineData(false, false, 8)]
    public async Task Every_delivery_mode_reaches_MySQL_and_the_aggregator(bool persistent, bool groupCommit, int store)
    {
        var settings = TestSettings.For(persistent);
        settings["Ingest:GroupCommit"] = groupCommit ? "true" : "false";
        await using var api = new SupermarketSystem.ApiFactory(settings);
        using var client = api.CreateClient();
        await SupermarketSystem.WaitUntilReadyAsync(client);

        var id = await Purchases.RecordAsync(client, store, 4004, "20210102", (77, 2));

        var stored = await Eventually.UntilAsync(() => TestDatabase.FindAsync(id), found => found is not null);
        Assert.NotNull(stored);
        Assert.Equal([(77, 2)], stored.Lines);
        var counted = await Eventually.UntilAsync(() => SalesAnswers.TopStoresAsync(system.Api, 77), stores => stores.Contains((store, 2L)));
        Assert.Contains((store, 2L), counted);
    }
}
