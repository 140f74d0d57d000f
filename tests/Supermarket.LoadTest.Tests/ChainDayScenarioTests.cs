using System.Net;
using System.Text.Json;
using Supermarket.LoadTest;
using Supermarket.LoadTest.Reporting;
using Supermarket.LoadTest.Scenario;

namespace Supermarket.LoadTest.Tests;

public sealed class ChainDayScenarioTests
{
    [Fact]
    public void Defaults_are_the_reference_clients()
    {
        var options = LoadOptions.Parse([]);

        Assert.Equal((1000, 100_000, 300, 5, "20210101", 9), (options.CustomersPerStore, options.MaxItemId, options.PurchasesPerHour, options.ItemsPerPurchase, options.Date, options.Hours));
        Assert.Equal(256L * 9 * 300, LoadOptions.Parse(["--stores", "256"]).TotalPurchases); // the seeds' A3 day: 691,200
    }

    /// <summary>The same seed and run id make the same purchases with the same keys in every process, so a second run
    /// is all late retries (the chaos run's late-retry). Fixed values: a seed that varied per process (HashCode) passed
    /// any comparison made inside one process.</summary>
    [Fact]
    public void The_same_seed_makes_the_same_purchases_in_every_process()
    {
        var options = LoadOptions.Parse(["--seed", "2021", "--run-id", "fixed", "--retry-for", "60"]);
        var first = new PurchaseFactory(options, storeId: 7).Next();

        Assert.Equal([1785, 38032, 86994, 79045, 42406], first.Items);
        Assert.Equal("fixed-1", first.IdempotencyKey);
    }

    [Theory]
    [InlineData("--url", "http://10.0.0.5:8080")]
    [InlineData("--url", "http://example.com/")]
    [InlineData("--stores", "0")]
    [InlineData("--date", "20210230")]
    [InlineData("--bogus", "1")]
    public void Bad_options_and_non_loopback_targets_are_refused(string name, string value) =>
        Assert.ThrowsAny<ArgumentException>(() => LoadOptions.Parse([name, value]));

    [Theory]
    [InlineData(32, 8, 8, 16)]
    [InlineData(256, 64, 64, 128)]
    [InlineData(5, 1, 1, 3)]
    [InlineData(1, 1, 0, 0)]
    public void Time_zones_are_a_quarter_a_quarter_and_the_rest(int stores, int east, int central, int west)
    {
        var zones = TimeZones.For(stores, hours: 9);

        Assert.Equal(stores, zones.Sum(z => z.StoreCount));
        Assert.Equal(east, zones[0].StoreCount);
        Assert.Equal(central, zones.FirstOrDefault(z => z.Name == "central")?.StoreCount ?? 0);
        Assert.Equal(west, zones.FirstOrDefault(z => z.Name == "west")?.StoreCount ?? 0);
        Assert.Equal([0, 3, 5], TimeZones.For(32, 9).Select(z => z.OpensAfterHours));
        Assert.Equal([0, 2, 2], TimeZones.For(32, 2).Select(z => z.OpensAfterHours));
    }

    [Fact]
    public void Purchases_have_the_reference_clients_ids_and_exact_body()
    {
        var options = LoadOptions.Parse(["--customers-per-store", "50", "--max-item-id", "30", "--items-per-purchase", "4"]);
        var factory = new PurchaseFactory(options, storeId: 7);

        for (var i = 0; i < 500; i++)
        {
            var purchase = factory.Next();
            Assert.InRange(purchase.CustomerId, 7000, 7049);
            Assert.Equal($"purchase/7/customer/{purchase.CustomerId}/date/20210101", purchase.Path);
            var items = JsonDocument.Parse(purchase.Body).RootElement.GetProperty("items").EnumerateArray().ToArray();
            Assert.Equal(4, items.Length);
            for (var j = 0; j < items.Length; j++)
            {
                // The generated clients' quirks: ItemID is a string, and the quantity key ends in a colon.
                Assert.Equal(["ItemID", "numberOfItems:"], items[j].EnumerateObject().Select(p => p.Name));
                Assert.Equal(purchase.Items[j].ToString(System.Globalization.CultureInfo.InvariantCulture), items[j].GetProperty("ItemID").GetString());
                Assert.InRange(purchase.Items[j], 1, 30);
                Assert.Equal(1, items[j].GetProperty("numberOfItems:").GetInt32());
            }
        }
    }

    [Theory]
    [InlineData(1, 1, 2)]
    [InlineData(3, 5, 2)]
    [InlineData(8, 9, 3)]
    public async Task A_closed_day_sends_stores_x_hours_x_purchases_per_hour_and_opens_every_zone(int stores, int hours, int perHour)
    {
        var options = LoadOptions.Parse(["--stores", $"{stores}", "--hours", $"{hours}", "--purchases-per-hour", $"{perHour}"]);
        var handler = new CountingHandler();
        var log = new RequestLog(options.TotalPurchases);
        var day = new ChainDay(options, new PurchaseSender(new HttpClient(handler) { BaseAddress = options.Url }, log, new SalesTally([1]), new HistorySample(1), options, new PurchaseOutcomes()));

        await day.RunAsync().WaitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(stores * hours * perHour, handler.Requests);
        Assert.Equal(options.TotalPurchases, log.Count);
        Assert.Equal(0, log.Failures);
        Assert.Equal(TimeZones.For(stores, hours).Count, day.Openings.Count);
        // Every store sent exactly its day.
        Assert.All(log.Records().GroupBy(r => r.Store), store => Assert.Equal(hours * perHour, store.Count()));
    }

    [Fact]
    public async Task Central_opens_only_after_some_store_finished_its_third_hour()
    {
        var options = LoadOptions.Parse(["--stores", "4", "--purchases-per-hour", "2"]);
        var handler = new CountingHandler();
        var log = new RequestLog(options.TotalPurchases);
        await new ChainDay(options, new PurchaseSender(new HttpClient(handler) { BaseAddress = options.Url }, log, new SalesTally([1]), new HistorySample(1), options, new PurchaseOutcomes()))
            .RunAsync().WaitAsync(TimeSpan.FromSeconds(30));

        var records = log.Records().ToList();
        var firstCentral = records.FindIndex(r => r.Store == 2);
        var firstWest = records.FindIndex(r => r.Store >= 3);
        // Store 1 (east, alone) had sent 3 hours × 2 purchases before central's store 2 started; 5 hours before west.
        Assert.True(records.Take(firstCentral).Count(r => r.Store == 1) >= 6, $"central opened after {firstCentral} purchases");
        Assert.True(records.Take(firstWest).Count(r => r.Store == 1) >= 10, $"west opened after {firstWest} purchases");
    }
}
