using System.Diagnostics;
using Microsoft.Playwright;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Live;

/// <summary>The live page of the system the test run started (<see cref="TestedAppHost"/>), at its public address, in
/// Debian's chromium: a purchase moves its bar within a second or two, and the aggregator stopped shows as away, its
/// last bars faded and never lower, until it is back. Store 311 and item 88811 are this test's own; the system's
/// database keeps what earlier runs and load tests stored, so a purchase of 10,000 units puts the item at the top of
/// the store's ranking however many stores those days had.</summary>
public sealed class LivePageTests(TestedAppHost appHost, ITestOutputHelper output)
{
    private const int Store = 311, Item = 88_811, Units = 10_000;

    /// <summary>From the 201 to the bar drawn: the page's update (Live:UpdateInterval, 1 s) and the question's wait
    /// for a fresh ledger read, with room for a loaded machine.</summary>
    private const float BarMoves = 3_000;

    [Fact]
    public async Task A_purchase_moves_its_bar_and_an_aggregator_stopped_shows_as_away_until_it_is_back()
    {
        await appHost.HealthyAsync();
        using var api = new HttpClient { BaseAddress = appHost.Api };
        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Chromium.LaunchAsync(playwright);
        var page = await LivePage.OpenAsync(browser, appHost.Api, Store, Item);
        var shots = Directory.CreateDirectory(Path.Combine(AppContext.BaseDirectory, "live")).FullName;

        await LivePage.ExpectCurrentAsync(page.Store, 30_000);
        var before = await LivePage.UnitsAsync(page.Store, Item);
        var posted = Stopwatch.StartNew();
        await Purchases.RecordAsync(api, Store, 311_001, "20210101", (Item, Units));
        await Assertions.Expect(LivePage.Units(page.Store, Item)).ToHaveTextAsync(LivePage.Written(before + Units), new() { Timeout = BarMoves });
        output.WriteLine($"the bar moved {posted.ElapsedMilliseconds} ms after the POST was sent");
        await Assertions.Expect(LivePage.Units(page.Item, Store)).ToHaveTextAsync(LivePage.Written(before + Units), new() { Timeout = BarMoves });
        await page.Browser.ScreenshotAsync(new() { Path = Path.Combine(shots, "live-page.png") });

        await appHost.Faults.StopAsync("sales-aggregator", CancellationToken.None);
        try
        {
            // Its questions go unanswered: after the API's deadline (Insights:QueryTimeout, 2 s) the page says so, and
            // keeps the last bars, faded, with what they counted.
            await LivePage.ExpectNotCurrentAsync(page.Store, "did not answer", 15_000);
            await LivePage.ExpectNotCurrentAsync(page.Item, "did not answer", 15_000);
            await Assertions.Expect(LivePage.Units(page.Store, Item)).ToHaveTextAsync(LivePage.Written(before + Units));
            await page.Browser.ScreenshotAsync(new() { Path = Path.Combine(shots, "live-page-away.png") });
        }
        finally
        {
            await appHost.Faults.StartUntilHealthyAsync("sales-aggregator", CancellationToken.None);
        }

        await LivePage.ExpectCurrentAsync(page.Store, 60_000);
        await LivePage.ExpectCurrentAsync(page.Item, 60_000);
        await Assertions.Expect(LivePage.Units(page.Store, Item)).ToHaveTextAsync(LivePage.Written(before + Units));
        output.WriteLine($"screenshots: {shots}");
    }

    [Fact]
    public async Task A_store_or_item_the_catalog_does_not_hold_is_said_on_the_page()
    {
        using var playwright = await Playwright.CreateAsync();
        await using var browser = await Chromium.LaunchAsync(playwright);
        var page = await LivePage.OpenAsync(browser, appHost.Api, 100_000, Item);

        await Assertions.Expect(page.Browser.Locator("#problem")).ToHaveTextAsync("store: must be between 1 and 512.", new() { Timeout = 10_000 });
    }
}
