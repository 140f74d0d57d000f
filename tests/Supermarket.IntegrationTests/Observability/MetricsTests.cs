extern alias Writer;

using System.Net;
using Writer::Supermarket.PurchasesWriter;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Observability;

/// <summary>The API's /metrics and a worker's metrics port, scraped after real purchases: OpenTelemetry's
/// Prometheus exporter, so every sample also carries its meter as otel_scope_name.</summary>
[Collection(nameof(SystemCollection))]
public sealed class MetricsTests(SupermarketSystem system)
{
    [Fact]
    public async Task The_API_counts_its_answers_and_times_its_publishes()
    {
        await Purchases.RecordAsync(system.Api, 12, 12001, "20210101", (31, 1));
        await Purchases.PostAsync(system.Api, "/purchase/0/customer/1/date/20210101", Purchases.Body((31, 1)));

        var text = await system.Api.GetStringAsync("/metrics");

        Assert.Matches(@"(?m)^supermarket_publish_duration_milliseconds_count\{[^}]*outcome=""confirmed""\} [1-9]", text);
        Assert.Matches(@"(?m)^supermarket_publish_batch_size_bucket\{[^}]*le=""\+Inf""\} [1-9]", text);
        // Every answer to a POST by status: ASP.NET Core's own request duration, through its OpenTelemetry instrumentation.
        foreach (var status in new[] { 201, 400 })
        {
            // The route's label holds braces of its own: a line is read whole.
            Assert.Matches($@"(?m)^http_server_request_duration_seconds_count\{{(?=.*http_route=""/purchase/\{{storeID\}}/)(?=.*http_response_status_code=""{status}"").*\}} [1-9]", text);
        }
    }

    [Fact]
    public async Task A_writer_serves_its_batches_on_its_metrics_endpoint()
    {
        // A second writer, competing with the collection's own for the purchases.
        await using var writer = await SupermarketSystem.StartWorkerAsync(Worker.Writer);
        using var http = new HttpClient { BaseAddress = writer.Url };

        var text = await Eventually.UntilAsync(async () =>
        {
            await Purchases.RecordAsync(system.Api, 13, 13001, "20210101", (32, 1));
            return await http.GetStringAsync("/metrics");
        }, scraped => scraped.Contains("supermarket_writer_purchases_stored_total{", StringComparison.Ordinal));

        Assert.Matches(@"(?m)^supermarket_writer_purchases_stored_total\{[^}]*\} [1-9]", text);
        Assert.Matches(@"(?m)^supermarket_writer_write_duration_milliseconds_count\{[^}]*\} [1-9]", text);
        // MySqlConnector's pool, through its own meter. The pool and its meter are the test process's, shared with the
        // collection's writer, and this host counts only what changed since it started: a connection that writer holds
        // may read as -1 idle here.
        Assert.DoesNotContain(TestSettings.Accounts.DatabaseWriter.Password, text, StringComparison.Ordinal);
        Assert.Matches(@"(?m)^db_client_connections_usage\{[^}]*state=""idle""[^}]*\} -?[0-9]", text);
        await writer.StopAsync();
    }
}
