using System.Diagnostics;
using System.Net.Http.Headers;
using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Scenario;

/// <summary>Posts one purchase and records the outcome. Only a 201 is a success, as in the reference client; no retries.</summary>
public sealed class PurchaseSender(HttpClient http, RequestLog log, SalesTally tally)
{
    private static readonly MediaTypeHeaderValue Json = MediaTypeHeaderValue.Parse("application/json; charset=utf-8");

    public async Task SendAsync(PlannedPurchase purchase)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, purchase.Path) { Content = new ByteArrayContent(purchase.Body) };
        request.Content.Headers.ContentType = Json;
        var start = Stopwatch.GetTimestamp();
        int status;
        try
        {
            using var response = await http.SendAsync(request, HttpCompletionOption.ResponseContentRead);
            status = (int)response.StatusCode;
        }
        catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException)
        {
            status = 0;
        }

        log.Add(purchase.StoreId, start, Stopwatch.GetTimestamp(), status);
        if (status == 201)
        {
            tally.Add(purchase);
        }
    }

    /// <summary>An arrival the open model could not send because too many were in flight.</summary>
    public void Drop(PlannedPurchase purchase)
    {
        var now = Stopwatch.GetTimestamp();
        log.Add(purchase.StoreId, now, now, status: -1);
    }

    public static HttpClient CreateClient(LoadOptions options) =>
        new(new SocketsHttpHandler
        {
            UseProxy = false,
            PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
            MaxConnectionsPerServer = int.MaxValue,
        })
        {
            BaseAddress = options.Url,
            Timeout = TimeSpan.FromSeconds(30),
            DefaultRequestHeaders = { Accept = { new MediaTypeWithQualityHeaderValue("application/json") } },
        };
}
