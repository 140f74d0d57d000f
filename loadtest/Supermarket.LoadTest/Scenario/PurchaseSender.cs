using System.Diagnostics;
using System.Net.Http.Headers;
using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Scenario;

/// <summary>Posts one purchase and records the outcome. Only a 201 is a success, as in the reference client. Without
/// --retry-for that is the only attempt; with it, a store retries what a fault interrupted, as a real till would.</summary>
public sealed class PurchaseSender(HttpClient http, RequestLog log, SalesTally tally, HistorySample history, LoadOptions options, PurchaseOutcomes outcomes)
{
    private static readonly MediaTypeHeaderValue Json = MediaTypeHeaderValue.Parse("application/json; charset=utf-8");
    private static readonly TimeSpan DefaultRetryAfter = TimeSpan.FromSeconds(1);

    public async Task SendAsync(PlannedPurchase purchase)
    {
        var giveUpAt = Stopwatch.GetTimestamp() + (long)(options.RetryFor.TotalSeconds * Stopwatch.Frequency);
        while (true)
        {
            var (status, retryAfter) = await PostAsync(purchase);
            if (status == 201)
            {
                tally.Add(purchase);
                history.Add(purchase, acknowledged: true);
                if (options.Retries)
                {
                    outcomes.Acknowledge(purchase);
                }

                return;
            }

            if (!options.Retries)
            {
                history.Add(purchase, acknowledged: false);
                return;
            }

            var wait = retryAfter ?? DefaultRetryAfter;

            if (!IsTransient(status) || Stopwatch.GetTimestamp() + (long)(wait.TotalSeconds * Stopwatch.Frequency) > giveUpAt)
            {
                outcomes.GiveUp(purchase);
                history.Add(purchase, acknowledged: false);
                return;
            }

            await Task.Delay(wait);
        }
    }

    /// <summary>An arrival the open model could not send because too many were in flight.</summary>
    public void Drop(PlannedPurchase purchase)
    {
        var now = Stopwatch.GetTimestamp();
        log.Add(purchase.StoreId, now, now, status: -1);
    }

    private async Task<(int Status, TimeSpan? RetryAfter)> PostAsync(PlannedPurchase purchase)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, purchase.Path) { Content = new ByteArrayContent(purchase.Body) };
        request.Content.Headers.ContentType = Json;
        if (purchase.IdempotencyKey is { } key)
        {
            request.Headers.Add("Idempotency-Key", key);
        }

        if (options.TillCredentials)
        {
            request.Headers.Authorization = IssuedCredentials.Till(purchase.StoreId, options.Credentials);
        }

        var start = Stopwatch.GetTimestamp();
        int status;
        TimeSpan? retryAfter = null;
        try
        {
            using var response = await http.SendAsync(request, HttpCompletionOption.ResponseContentRead);
            status = (int)response.StatusCode;
            retryAfter = response.Headers.RetryAfter?.Delta;
        }
        catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException)
        {
            status = 0;
        }

        log.Add(purchase.StoreId, start, Stopwatch.GetTimestamp(), status);
        return (status, retryAfter);
    }

    /// <summary>No answer, or the gateway or the API saying "not now": the purchase may go through on a retry.</summary>
    private static bool IsTransient(int status) => status is 0 or 502 or 503 or 504;

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
            DefaultRequestHeaders =
            {
                Accept = { new MediaTypeWithQualityHeaderValue("application/json") },
                Authorization = IssuedCredentials.ForSalesQuestions(options),
            },
        };
}
