using System.Net;
using System.Text.Json;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>Reads the insight endpoints' answers in the course's shapes.</summary>
public static class InsightAnswers
{
    /// <summary>The top items at a store; <paramref name="query"/> (<c>?from=…&amp;to=…</c>) asks a range of days.</summary>
    public static async Task<(int ItemId, long Units)[]> TopItemsAsync(HttpClient api, int store, string query = "")
    {
        var stores = await GetAsync(api, $"/items/store/{store}{query}");
        return [.. stores.EnumerateArray().Select(e => (e.GetProperty("itemID").GetInt32(), e.GetProperty("numberOfItems").GetInt64()))];
    }

    public static async Task<(int StoreId, long Units)[]> TopStoresAsync(HttpClient api, int item, string path = "top10", TimeSpan? within = null, string query = "")
    {
        var stores = await GetAsync(api, $"/items/{path}/{item}{query}", within);
        return [.. stores.EnumerateArray().Select(e => (e.GetProperty("storeID").GetInt32(), e.GetProperty("numberOfItems").GetInt64()))];
    }

    /// <summary>A 503 or 504 is a fair answer while the aggregator (re)starts or the broker reconnects, and has tests
    /// of its own; these wait it out (bounded: by default Eventually's, <paramref name="within"/> when a caller waits
    /// for a recovery that takes longer) and then require a 200.</summary>
    private static async Task<JsonElement> GetAsync(HttpClient api, string path, TimeSpan? within = null)
    {
        var response = await Eventually.UntilAsync(
            () => api.GetAsync(path),
            answer => answer.StatusCode is not (HttpStatusCode.ServiceUnavailable or HttpStatusCode.GatewayTimeout),
            within);
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"GET {path}: {(int)response.StatusCode} {await response.Content.ReadAsStringAsync()}");
        return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("stores").Clone();
    }
}
