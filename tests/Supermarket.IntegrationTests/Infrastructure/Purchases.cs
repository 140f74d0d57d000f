using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>Posts purchases in the course's wire format, as its generated clients do.</summary>
public static class Purchases
{
    public static string Body(params (int ItemId, int Quantity)[] items) =>
        JsonSerializer.Serialize(new
        {
            items = items.Select(i => new Dictionary<string, object> { ["ItemID"] = i.ItemId.ToString(System.Globalization.CultureInfo.InvariantCulture), ["numberOfItems:"] = i.Quantity }),
        });

    public static Task<HttpResponseMessage> PostAsync(HttpClient api, string path, string body, string contentType = "application/json") =>
        api.PostAsync(path, new StringContent(body, Encoding.UTF8, contentType));

    /// <summary>Posts a valid purchase and returns the id the API assigned; fails the test unless it is a 201.</summary>
    public static async Task<Guid> RecordAsync(HttpClient api, int store, int customer, string date, params (int ItemId, int Quantity)[] items)
    {
        var response = await PostAsync(api, $"/purchase/{store}/customer/{customer}/date/{date}", Body(items));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var accepted = await response.Content.ReadFromJsonAsync<JsonElement>();
        return accepted.GetProperty("purchaseId").GetGuid();
    }
}
