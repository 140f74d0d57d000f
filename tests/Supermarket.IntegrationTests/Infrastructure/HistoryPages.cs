using System.Net;
using System.Text.Json;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>One purchase of a history page, as the API answers it.</summary>
public sealed record HistoryEntry(Guid PurchaseId, int StoreId, int CustomerId, string Date, DateTimeOffset ReceivedAt, (int ItemId, int Quantity)[] Items);

/// <summary>Reads the purchase history endpoints: one page, or every page by following the continuations.</summary>
public static class HistoryPages
{
    public static async Task<(HistoryEntry[] Purchases, string? Continuation)> PageAsync(HttpClient api, string path, string? continuation = null)
    {
        var url = continuation is null ? path : $"{path}{(path.Contains('?', StringComparison.Ordinal) ? '&' : '?')}continuation={Uri.EscapeDataString(continuation)}";
        var response = await api.GetAsync(url);
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"GET {url}: {(int)response.StatusCode} {text}");
        using var json = JsonDocument.Parse(text);
        var purchases = json.RootElement.GetProperty("purchases").EnumerateArray().Select(p => new HistoryEntry(
            p.GetProperty("purchaseID").GetGuid(),
            p.GetProperty("storeID").GetInt32(),
            p.GetProperty("custID").GetInt32(),
            p.GetProperty("date").GetString()!,
            p.GetProperty("receivedAt").GetDateTimeOffset(),
            [.. p.GetProperty("items").EnumerateArray().Select(l => (l.GetProperty("itemID").GetInt32(), l.GetProperty("numberOfItems").GetInt32()))]))
            .ToArray();
        var next = json.RootElement.GetProperty("continuation");
        return (purchases, next.ValueKind == JsonValueKind.Null ? null : next.GetString());
    }

    /// <summary>Every page, in order; <paramref name="betweenPages"/> runs after each page but the last.</summary>
    public static async Task<(List<HistoryEntry> Purchases, int Pages)> AllAsync(HttpClient api, string path, Func<Task>? betweenPages = null)
    {
        var all = new List<HistoryEntry>();
        string? continuation = null;
        var pages = 0;
        do
        {
            (var page, continuation) = await PageAsync(api, path, continuation);
            all.AddRange(page);
            pages++;
            if (continuation is not null && betweenPages is not null)
            {
                await betweenPages();
            }
        }
        while (continuation is not null && pages < 1000);

        return (all, pages);
    }
}
