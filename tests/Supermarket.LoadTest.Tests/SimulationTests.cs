using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
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

    [Fact]
    public async Task A_primed_run_starts_its_schedule_after_the_priming_not_behind_it()
    {
        // 100 arrivals in the run's first second, at most 10 in flight: a schedule that started its clock before a
        // second of priming finds that second's arrivals all due at once, and drops most of them.
        var bare = WebApplication.CreateSlimBuilder();
        bare.Logging.ClearProviders();
        bare.WebHost.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, 0));
        await using var system = bare.Build();
        system.MapPost("/purchase/{storeID}/customer/{custID}/date/{date}", () => Results.StatusCode(StatusCodes.Status201Created));
        await system.StartAsync(TestContext.Current.CancellationToken);
        var reports = Directory.CreateTempSubdirectory("primed-run-");
        var options = LoadOptions.Parse(["--simulation", "constant", "--stores", "100", "--rate", "1", "--hours", "1",
            "--purchases-per-hour", "2", "--max-in-flight", "10", "--prime", "1", "--no-verify", "--url", system.Urls.First(),
            "--workers", "http://127.0.0.1:1", "--broker-management", "http://127.0.0.1:1", "--reports", reports.FullName]);
        var run = new LoadRun(options);

        await run.RunAsync().WaitAsync(TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken);

        var summary = RunResult.Read(Path.Combine(reports.FullName, "summary.json"));
        reports.Delete(recursive: true);
        Assert.Equal(200, summary.Successful + summary.Unsuccessful);
        // A stall of the test host can still drop a few; behind the priming most of the first second's 100 go.
        Assert.True(summary.Unsuccessful < 25, $"{summary.Unsuccessful} of the run's 200 purchases had no 201");
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
