using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.Playwright;

namespace Supermarket.IntegrationTests.Live;

/// <summary>The live page (src/Supermarket.Api/wwwroot) open in a browser, as its tests read it: each ranking's panel,
/// its state line and its bars.</summary>
public sealed partial class LivePage(IPage page)
{
    public ILocator Store => page.Locator("#store-panel");

    public ILocator Item => page.Locator("#item-panel");

    public ILocator Shards => page.Locator("#shards");

    public IPage Browser => page;

    public static async Task<LivePage> OpenAsync(IBrowser browser, Uri api, int store, int item)
    {
        var page = await browser.NewPageAsync(new() { ViewportSize = new() { Width = 1200, Height = 760 }, Locale = "en-US" });
        await page.GotoAsync(new Uri(api, $"/?store={store}&item={item}&range=all").ToString());
        return new LivePage(page);
    }

    /// <summary>The units a panel shows for an id (an item at a store, a store for an item); 0 when it shows none.</summary>
    public static async Task<long> UnitsAsync(ILocator panel, int id)
    {
        var bar = panel.Locator($"li[data-id='{id}'] .units");
        return await bar.CountAsync() == 0 ? 0 : long.Parse(await bar.InnerTextAsync(), NumberStyles.AllowThousands, CultureInfo.InvariantCulture);
    }

    public static ILocator Units(ILocator panel, int id) => panel.Locator($"li[data-id='{id}'] .units");

    /// <summary>As the page writes units in its locale here, en-US: a comma between thousands, as the invariant culture.</summary>
    public static string Written(long units) => units.ToString("N0", CultureInfo.InvariantCulture);

    public static async Task ExpectCurrentAsync(ILocator panel, float timeoutMs)
    {
        await Assertions.Expect(panel).Not.ToHaveClassAsync(NotCurrent(), new() { Timeout = timeoutMs });
        await Assertions.Expect(panel.Locator(".state")).ToContainTextAsync("As of", new() { Timeout = timeoutMs });
    }

    public static async Task ExpectNotCurrentAsync(ILocator panel, string why, float timeoutMs)
    {
        await Assertions.Expect(panel).ToHaveClassAsync(NotCurrent(), new() { Timeout = timeoutMs });
        await Assertions.Expect(panel.Locator(".state")).ToContainTextAsync(why, new() { Timeout = timeoutMs });
    }

    [GeneratedRegex(@"\bnot-current\b")]
    private static partial Regex NotCurrent();
}
