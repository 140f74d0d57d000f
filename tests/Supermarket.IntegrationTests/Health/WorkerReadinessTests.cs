extern alias Writer;
extern alias Aggregator;

using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Supermarket.IntegrationTests.Infrastructure;
using Aggregator::Supermarket.SalesAggregator;
using Writer::Supermarket.PurchasesWriter;

namespace Supermarket.IntegrationTests.Health;

/// <summary>
/// Each worker is a small Kestrel host: /health/live answers while the process runs, /health/ready only once it can
/// do its job (connected to the broker and consuming; for the aggregator also done rebuilding its matrix), which is
/// what compose and the scripts wait on.
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class WorkerReadinessTests(SupermarketSystem system)
{
    [Fact]
    public async Task The_running_workers_are_ready_and_serve_their_metrics()
    {
        using var http = new HttpClient();
        foreach (var worker in new[] { system.WriterUrl, system.AggregatorUrl })
        {
            Assert.Equal(HttpStatusCode.OK, (await http.GetAsync(new Uri(worker, "/health/ready"))).StatusCode);
            using var metrics = await http.GetAsync(new Uri(worker, "/metrics"));
            Assert.Equal(HttpStatusCode.OK, metrics.StatusCode);
            Assert.Equal("text/plain", metrics.Content.Headers.ContentType?.MediaType);
        }
    }

    [Fact]
    public async Task A_writer_without_its_broker_is_live_but_not_ready()
    {
        var settings = TestSettings.For();
        settings["Broker:Port"] = "1"; // nothing listens there
        // Not waiting for a bus that cannot start; it is left retrying in the background when the test ends.
        await using var writer = await SupermarketSystem.StartWorkerAsync(Worker.Writer, settings, untilBusStarted: false);
        using var http = new HttpClient { BaseAddress = writer.Url };

        // Sampled for a while: not ready at any point, however long MassTransit keeps trying.
        for (var sample = 0; sample < 5; sample++)
        {
            Assert.Equal(HttpStatusCode.OK, (await http.GetAsync("/health/live")).StatusCode);
            Assert.Equal(HttpStatusCode.ServiceUnavailable, (await http.GetAsync("/health/ready")).StatusCode);
            await Task.Delay(TimeSpan.FromMilliseconds(500));
        }
    }

    [Fact]
    public async Task An_aggregator_connected_to_the_broker_is_not_ready_until_its_matrix_is_rebuilt()
    {
        var settings = TestSettings.For();
        // The ledger cannot be read, so the rebuild never finishes; the broker is fine.
        settings["Database:ConnectionString"] = new MySqlConnector.MySqlConnectionStringBuilder(TestSettings.DatabaseAt()) { Port = 1 }.ConnectionString;
        await using var aggregator = await SupermarketSystem.StartWorkerAsync(Worker.Aggregator, settings);
        using var http = new HttpClient { BaseAddress = aggregator.Url };
        var health = aggregator.Services.GetRequiredService<HealthCheckService>();

        var busHealthy = await Eventually.UntilAsync(
            async () => (await health.CheckHealthAsync(check => check.Name != "sales-matrix")).Status,
            status => status == HealthStatus.Healthy, TimeSpan.FromSeconds(30));
        Assert.Equal(HealthStatus.Healthy, busHealthy);

        Assert.Equal(HttpStatusCode.OK, (await http.GetAsync("/health/live")).StatusCode);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, (await http.GetAsync("/health/ready")).StatusCode);
    }
}
