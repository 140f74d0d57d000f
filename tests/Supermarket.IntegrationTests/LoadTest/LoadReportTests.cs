extern alias LoadTest;

using System.Text.Json;
using LoadTest::Supermarket.LoadTest;
using LoadTest::Supermarket.LoadTest.Reporting;
using Microsoft.Playwright;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.LoadTest;

/// <summary>The load test as its users run it (LoadRun is what Program runs): a short run against the whole system,
/// its report opened in Debian's chromium, and its exit code when a threshold is breached.</summary>
[Collection(nameof(SystemCollection))]
public sealed class LoadReportTests(SupermarketSystem system, ITestOutputHelper output)
{
    private const string Chromium = "/usr/bin/chromium";

    [Fact]
    public async Task A_real_report_renders_in_headless_Chromium_with_every_chart_drawn_with_points_and_axis_labels()
    {
        // Six seconds at a steady rate, so every chart has seconds to draw.
        var reports = Directory.CreateTempSubdirectory("supermarket-report-").FullName;
        var options = Options(reports, "--simulation", "constant", "--stores", "6", "--hours", "1", "--purchases-per-hour", "120", "--rate", "20",
            "--date", "20200707", "--warm-up", "1", "--threshold", "failures=0");

        Assert.Equal(0, await new LoadRun(options, system.Api).RunAsync());

        using var playwright = await Playwright.CreateAsync();
        await using var browser = await playwright.Chromium.LaunchAsync(new()
        {
            ExecutablePath = Chromium,
            Headless = true,
            Args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        });
        var page = await browser.NewPageAsync(new() { ViewportSize = new() { Width = 1000, Height = 1400 } });
        var requested = new List<string>();
        page.Request += (_, request) => requested.Add(request.Url);
        await page.GotoAsync(new Uri(Path.Combine(reports, "report.html")).AbsoluteUri);

        var charts = await page.EvaluateAsync<JsonElement>("""
            [...document.querySelectorAll('figure.chart')].map(figure => ({
              title: figure.querySelector('figcaption').textContent,
              lines: [...figure.querySelectorAll('g.series polyline')].map(line => line.points.numberOfItems),
              drawnWidth: Math.max(0, ...[...figure.querySelectorAll('g.series')].map(group => group.getBBox().width)),
              points: figure.querySelectorAll('circle.point').length,
              axisLabels: [...figure.querySelectorAll('text.axis-label')].map(label => label.textContent.trim()).filter(text => text.length > 0),
              ticks: figure.querySelectorAll('text.tick').length,
              markers: [...figure.querySelectorAll('text.marker-label')].map(label => label.textContent),
            }))
            """);
        var screenshot = Path.Combine(reports, "report.png");
        await page.ScreenshotAsync(new() { Path = screenshot, FullPage = true });
        output.WriteLine($"report: {reports}/report.html, screenshot: {screenshot}");

        Assert.Equal(["Throughput", "POST latency", "Status codes", "Queued for the writer", "How far storage trails the 201s"],
            charts.EnumerateArray().Select(chart => chart.GetProperty("title").GetString()));
        Assert.All(charts.EnumerateArray(), chart =>
        {
            var title = chart.GetProperty("title").GetString();
            Assert.True(chart.GetProperty("lines").EnumerateArray().All(line => line.GetInt32() >= 2), $"{title}: a line with fewer than two points");
            Assert.True(chart.GetProperty("points").GetInt32() >= 2, $"{title}: no data points");
            Assert.True(chart.GetProperty("drawnWidth").GetDouble() > 100, $"{title}: its lines are not drawn across the chart");
            Assert.Equal(2, chart.GetProperty("axisLabels").GetArrayLength());
            Assert.True(chart.GetProperty("ticks").GetInt32() >= 4, $"{title}: no tick labels");
            Assert.Contains("all stores opens", chart.GetProperty("markers").EnumerateArray().Select(marker => marker.GetString()));
        });
        Assert.Equal("passed", await page.Locator("table.checks td.fail, table.checks td.pass").First.TextContentAsync());
        Assert.Equal(0, await page.Locator("table.checks td.fail").CountAsync());
        Assert.All(requested, url => Assert.StartsWith("file://", url)); // self-contained: nothing fetched
        Assert.True(new FileInfo(screenshot).Length > 20_000, "the screenshot is nearly empty");
    }

    [Fact]
    public async Task A_breached_threshold_exits_with_2_and_is_recorded_though_every_purchase_got_through()
    {
        var reports = Directory.CreateTempSubdirectory("supermarket-report-").FullName;
        var options = Options(reports, "--stores", "4", "--purchases-per-hour", "3", "--date", "20200708",
            "--threshold", "failures=0", "--threshold", "rps>=100000000");

        var exit = await new LoadRun(options, system.Api).RunAsync();

        var result = RunResult.Read(Path.Combine(reports, "summary.json"));
        Assert.Equal(LoadRun.ThresholdBreached, exit);
        Assert.Equal(0, result.Unsuccessful);
        Assert.True(result.Verified);
        Assert.Equal([("failures", true), ("rps", false)], result.Thresholds.Select(threshold => (threshold.Figure, threshold.Passed)));
    }

    private LoadOptions Options(string reports, params string[] args) => LoadOptions.Parse(
    [
        .. args, "--max-item-id", "50", "--plain", "--reports", reports, "--verify-timeout", "60",
        "--database", TestSettings.VerifierConnectionString(), "--broker-vhost", TestSettings.VirtualHost,
        "--workers", $"{system.WriterUrl},{system.AggregatorUrl}",
    ]) with
    {
        // The API under test checks credentials with this run's key, not the machine's.
        Credentials = TestSettings.Auth,
    };
}
