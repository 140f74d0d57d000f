using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Ingest;

/// <summary>The seeds' main experiment: persistent and transient delivery both reach MySQL and the aggregator.</summary>
[Collection(nameof(SystemCollection))]
public sealed class DeliveryModeTests(SupermarketSystem system)
{
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task Both_delivery_modes_reach_MySQL_and_the_aggregator(bool persistent)
    {
        await using var api = new SupermarketSystem.ApiFactory(TestSettings.For(persistent));
        using var client = api.CreateClient();
        await SupermarketSystem.WaitUntilReadyAsync(client);

        var store = persistent ? 4 : 6;
        var id = await Purchases.RecordAsync(client, store, 4004, "20210102", (77, 2));

        var stored = await Eventually.UntilAsync(() => TestDatabase.FindAsync(id), found => found is not null);
        Assert.NotNull(stored);
        Assert.Equal([(77, 2)], stored.Lines);
        var counted = await Eventually.UntilAsync(() => SalesAnswers.TopStoresAsync(system.Api, 77), stores => stores.Contains((store, 2L)));
        Assert.Contains((store, 2L), counted);
    }
}
