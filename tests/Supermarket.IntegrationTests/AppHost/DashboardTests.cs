using System.Net.Http.Headers;
using System.Security.Cryptography;
using System.Text.RegularExpressions;
using Microsoft.Playwright;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.AppHost;

/// <summary>The Aspire dashboard of the system the test run started (<see cref="TestedAppHost"/>), in a real browser
/// (Debian's chromium, driven by Playwright): what a user sees there.</summary>
public sealed class DashboardTests(TestedAppHost appHost, ITestOutputHelper output)
{
    private static readonly string[] OneShots = ["mariadb-install", "mariadb-accounts", "schema-migration"];

    [Fact]
    public async Task The_dashboard_shows_every_resource_running_and_one_purchase_as_one_trace_from_the_api_to_the_writer()
    {
        // The tests before this one stopped the broker and the database: the system has recovered from them.
        await appHost.HealthyAsync();
        var dashboard = appHost.Dashboard;
        var processes = appHost.Resources();
        Assert.Contains(processes, resource => resource.Name == "purchases-writer");

        // One purchase, its trace started by the caller (sampled), so the test knows its id.
        var traceId = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(16));
        using (var api = new HttpClient { BaseAddress = appHost.Api })
        using (var post = new HttpRequestMessage(HttpMethod.Post, "/purchase/5/customer/5001/date/20190202"))
        {
            post.Headers.Add("traceparent", $"00-{traceId}-{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(8))}-01");
            post.Content = new StringContent("""{"items":[{"ItemID":"47","numberOfItems:":1}]}""", new MediaTypeHeaderValue("application/json"));
            using var recorded = await api.SendAsync(post);
            Assert.Equal(System.Net.HttpStatusCode.Created, recorded.StatusCode);
        }

        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Chromium.LaunchAsync(playwright);
        var page = await browser.NewPageAsync(new() { ViewportSize = new() { Width = 1600, Height = 1000 } });

        // The login token in the address signs the browser in; the resources page follows.
        await page.GotoAsync(dashboard.ToString());
        var shots = Directory.CreateDirectory(Path.Combine(AppContext.BaseDirectory, "dashboard")).FullName;
        try
        {
            await ExpectEveryResourceAsync(page, processes);
        }
        catch (PlaywrightException)
        {
            // What the browser showed instead, for the failure's report.
            var failed = Path.Combine(shots, "resources-failed.png");
            await page.ScreenshotAsync(new() { Path = failed });
            output.WriteLine($"the page at {page.Url} ({failed}) read: {await page.InnerTextAsync("body")}");
            throw;
        }

        var resources = Path.Combine(shots, "resources.png");
        await page.ScreenshotAsync(new() { Path = resources });

        // The trace, as the dashboard shows it: spans of the API and of the writer's transaction. Telemetry is
        // exported in batches, so the page is asked again until both are there.
        var detail = new Uri(dashboard, $"/traces/detail/{traceId}").ToString();
        var shown = await Eventually.UntilAsync(async () =>
        {
            await page.GotoAsync(detail);
            await page.WaitForTimeoutAsync(1000);
            return await page.InnerTextAsync("body");
        }, text => text.Contains("purchases-writer", StringComparison.Ordinal) && text.Contains("api", StringComparison.Ordinal)
            && !text.Contains("not found", StringComparison.Ordinal), TimeSpan.FromSeconds(60));
        var trace = Path.Combine(Path.GetDirectoryName(resources)!, "trace.png");
        await page.ScreenshotAsync(new() { Path = trace });
        output.WriteLine($"screenshots: {resources}, {trace}");

        Assert.Contains("purchases-writer", shown, StringComparison.Ordinal);
        Assert.Contains("POST", shown, StringComparison.Ordinal);
    }

    /// <summary>Every resource in its row, in the state the AppHost reports, healthy where it has a health check.</summary>
    private static async Task ExpectEveryResourceAsync(IPage page, IEnumerable<(string Name, string State, string? Health, int? ExitCode)> processes)
    {
        foreach (var (name, state, health, exitCode) in processes)
        {
            var row = page.Locator("tr.resource-row").Filter(new() { Has = page.Locator($"td[title$=': {name}']") });
            await Assertions.Expect(row).ToHaveCountAsync(1, new() { Timeout = 30_000 });
            // The steps that run once (MariaDB's set-up, the migration) have finished, and well.
            var expected = OneShots.Contains(name) ? "Finished" : "Running";
            Assert.True(expected == "Running" || exitCode == 0, $"{name} ended with exit code {exitCode}");
            // The state's cell reads the state (and a count of error logs, if any); a running one's title says
            // Running only while it is healthy.
            var stateCell = row.Locator("td[col-index='2']");
            await Assertions.Expect(stateCell).ToHaveTextAsync(new Regex($@"^\s*{expected}\b"), new() { Timeout = 30_000 });
            if (expected == "Running")
            {
                await Assertions.Expect(stateCell).ToHaveAttributeAsync("title", "Running", new() { Timeout = 30_000 });
            }

            Assert.True(expected == "Finished" || health == "Healthy", $"{name} is {state}, {health ?? "without a health check"}");
        }
    }
}
