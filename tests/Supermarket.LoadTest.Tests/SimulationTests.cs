using System.Net;
using System.Net.Sockets;
using Supermarket.LoadTest;
using Supermarket.LoadTest.Reporting;
using Supermarket.LoadTest.Scenario;

namespace Supermarket.LoadTest.Tests;

public sealed class SimulationTests
{
    [Fact]
    public void A_constant_rate_sends_the_days_purchases_evenly()
    {
        var options = LoadOptions.Parse(["--simulation", "constant", "--stores", "10", "--hours", "1", "--purchases-per-hour", "100", "--rate", "5"]);
        var schedule = ArrivalSchedule.For(options);

        Assert.Equal(20, schedule.Seconds, 6); // 1,000 purchases at 50 a second
        Assert.Equal(1, schedule.Due(0));
        Assert.Equal(501, schedule.Due(10));
        Assert.Equal(1_000, schedule.Due(25));
    }

    [Fact]
    public void A_ramp_rises_evenly_from_the_first_rate_to_the_last()
    {
        var options = LoadOptions.Parse(["--simulation", "ramp", "--stores", "10", "--hours", "1", "--purchases-per-hour", "300", "--ramp-from", "1", "--rate", "5"]);
        var schedule = ArrivalSchedule.For(options);

        // 3,000 purchases at a mean of 30 a second: 100 s, rising from 10 to 50 a second.
        Assert.Equal(100, schedule.Seconds, 6);
        Assert.Equal(10, schedule.RateAt(0), 6);
        Assert.Equal(30, schedule.RateAt(50), 6);
        Assert.Equal(50, schedule.RateAt(100), 6);
        // The first half of the time sends less than half the purchases: 10×50 + 40×50²/200 = 1,000.
        Assert.Equal(1_001, schedule.Due(50));
        Assert.Equal(3_000, schedule.Due(100));
    }

    [Fact]
    public async Task An_open_simulation_sends_every_purchase_with_every_store_open_from_the_start()
    {
        var options = LoadOptions.Parse(["--simulation", "ramp", "--stores", "4", "--hours", "1", "--purchases-per-hour", "10", "--ramp-from", "20", "--rate", "40"]);
        var handler = new CountingHandler();
        var log = new RequestLog(options.TotalPurchases);
        var day = new ChainDay(options, new PurchaseSender(new HttpClient(handler) { BaseAddress = options.Url }, log, new SalesTally([1]), new HistorySample(1), options, new PurchaseOutcomes()));

        await day.RunAsync().WaitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(40, handler.Requests);
        Assert.Equal(0, log.Failures);
        Assert.Equal([("all stores", 4, (double?)0)], day.Zones().Select(zone => (zone.Zone, zone.Stores, zone.OpenedAt)));
    }

    [Fact]
    public async Task Priming_sends_the_runs_rate_to_a_server_of_its_own_and_nothing_to_the_system()
    {
        var system = new TcpListener(IPAddress.Loopback, 0);
        system.Start();
        var connected = 0;
        var accepting = Task.Run(async () =>
        {
            while (true)
            {
                using var connection = await system.AcceptTcpClientAsync();
                Interlocked.Increment(ref connected);
            }
        });
        var options = LoadOptions.Parse(["--simulation", "constant", "--stores", "4", "--rate", "10", "--prime", "2",
            "--url", $"http://127.0.0.1:{((IPEndPoint)system.LocalEndpoint).Port}"]);

        var primed = await ClientPriming.PrimeAsync(options).WaitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(80, primed); // 4 stores at 10 a second for 2 s, every one answered 201
        Assert.Equal(0, Volatile.Read(ref connected));
        system.Stop();
        await Assert.ThrowsAnyAsync<Exception>(() => accepting);
    }

    [Theory]
    [InlineData("--prime", "-1")]
    [InlineData("--simulation", "sometimes")]
    [InlineData("--rate", "0")]
    [InlineData("--ramp-from", "-1")]
    [InlineData("--warm-up", "-5")]
    public void Bad_simulation_options_are_refused(string name, string value) =>
        Assert.ThrowsAny<ArgumentException>(() => LoadOptions.Parse([name, value]));
}
