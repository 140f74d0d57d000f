using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Supermarket.LoadTest.Scenario;

namespace Supermarket.LoadTest.Verification;

/// <summary>
/// Reads one store's day and one customer's day through the purchase history endpoints, every page, and compares
/// them with what the run sent (<see cref="HistorySample"/>): the pages join up (no purchase twice, newest first),
/// every purchase that got a 201 is there with its customer and lines, and nothing received during the run is there
/// that the run did not send. Purchases of earlier runs on the same day are allowed; they were received before.
/// </summary>
public sealed class HistoryCheck(HttpClient api, LoadOptions options)
{
    private const int MaxPages = 100_000;
    private const int MaxAttempts = 20;

    public async Task<IReadOnlyList<(bool Passed, string What)>> VerifyAsync(HistorySample sample)
    {
        var date = DateOnly.ParseExact(options.Date, "yyyyMMdd", CultureInfo.InvariantCulture);
        var results = new List<(bool, string)>();
        await CompareAsync(results, $"purchases/store/{sample.Store}?date={options.Date}", $"store {sample.Store}'s purchases on {options.Date}",
            sample, _ => true);
        if (sample.Customer is { } customer)
        {
            await CompareAsync(results, $"purchases/customer/{customer}?from={options.Date}&to={options.Date}",
                $"customer {customer}'s purchases on {options.Date}", sample, purchase => purchase.CustomerId == customer);
        }

        return results;
    }

    private async Task CompareAsync(List<(bool, string)> results, string path, string what, HistorySample sample, Func<PlannedPurchase, bool> belongs)
    {
        var (pages, history, failure) = await ReadAllAsync(path);
        if (failure is not null)
        {
            results.Add((false, $"{what}: {failure} after {pages:N0} pages"));
            return;
        }

        var ids = history.Select(p => p.Id).ToList();
        results.Add((ids.Count == ids.Distinct().Count() && history.SequenceEqual(history.OrderByDescending(p => p.Date).ThenByDescending(p => p.ReceivedAt)),
            $"GET /{path}: {history.Count:N0} purchases in {pages:N0} pages, none twice, newest first"));

        var returned = Tally(history.Select(p => p.Shape));
        var acknowledged = Tally(sample.Acknowledged.Where(belongs).Select(Shape));
        var missing = acknowledged.Sum(sent => Math.Max(0, sent.Value - returned.GetValueOrDefault(sent.Key)));
        results.Add((missing == 0, $"{what}: every purchase with a 201 is there, lines and quantities as sent ({missing:N0} of {acknowledged.Values.Sum():N0} missing)"));

        var mayBeThere = Tally(sample.Acknowledged.Concat(sample.Unconfirmed).Where(belongs).Select(Shape));
        var received = Tally(history.Where(p => p.ReceivedAt >= sample.Since).Select(p => p.Shape));
        var unexplained = received.Sum(got => Math.Max(0, got.Value - mayBeThere.GetValueOrDefault(got.Key)));
        results.Add((unexplained == 0, $"{what}: nothing received during the run that the run did not send ({unexplained:N0} unexplained)"));
    }

    /// <summary>Every page, following the continuations; a page the writer could not answer in time (503, 504: it
    /// may still be draining a backlog, or restarting in the chaos run) is asked again, bounded.</summary>
    private async Task<(int Pages, List<(Guid Id, DateOnly Date, DateTimeOffset ReceivedAt, string Shape)> Purchases, string? Failure)> ReadAllAsync(string path)
    {
        var purchases = new List<(Guid, DateOnly, DateTimeOffset, string)>();
        string? continuation = null;
        var pages = 0;
        do
        {
            var url = continuation is null ? path : $"{path}&continuation={Uri.EscapeDataString(continuation)}";
            using var response = await GetPageAsync(url);
            if (response.StatusCode == HttpStatusCode.Unauthorized)
            {
                return (pages, purchases, $"GET /{url} answered 401: the API did not accept the verifier's analyst credential "
                    + "(issued with a signing key that is not the API's Auth:SigningKey)");
            }

            if (response.StatusCode != HttpStatusCode.OK)
            {
                return (pages, purchases, $"GET /{url} answered {(int)response.StatusCode}");
            }

            using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
            foreach (var purchase in json.RootElement.GetProperty("purchases").EnumerateArray())
            {
                var lines = purchase.GetProperty("items").EnumerateArray()
                    .Select(line => (line.GetProperty("itemID").GetInt32(), line.GetProperty("numberOfItems").GetInt32()));
                purchases.Add((
                    purchase.GetProperty("purchaseID").GetGuid(),
                    DateOnly.ParseExact(purchase.GetProperty("date").GetString()!, "yyyyMMdd", CultureInfo.InvariantCulture),
                    purchase.GetProperty("receivedAt").GetDateTimeOffset(),
                    Shape(purchase.GetProperty("storeID").GetInt32(), purchase.GetProperty("custID").GetInt32(), lines)));
            }

            var next = json.RootElement.GetProperty("continuation");
            continuation = next.ValueKind == JsonValueKind.Null ? null : next.GetString();
            pages++;
        }
        while (continuation is not null && pages < MaxPages);

        return (pages, purchases, null);
    }

    private async Task<HttpResponseMessage> GetPageAsync(string url)
    {
        for (var attempt = 1; ; attempt++)
        {
            using var request = IssuedCredentials.HistoryRead(url, "verifier", options.Credentials);
            var response = await api.SendAsync(request);
            if (response.StatusCode is not (HttpStatusCode.ServiceUnavailable or HttpStatusCode.GatewayTimeout or HttpStatusCode.TooManyRequests)
                || attempt == MaxAttempts)
            {
                return response;
            }

            // Past its reads a minute the API says when to come back.
            var wait = response.Headers.RetryAfter?.Delta ?? TimeSpan.FromMilliseconds(500);
            response.Dispose();
            await Task.Delay(wait);
        }
    }

    /// <summary>A purchase as the till sent it: store, customer and lines in order (every quantity 1, as the
    /// reference client sends). Ids are not compared: the API assigns them.</summary>
    private static string Shape(PlannedPurchase purchase) =>
        Shape(purchase.StoreId, purchase.CustomerId, purchase.Items.Select(item => (item, 1)));

    private static string Shape(int store, int customer, IEnumerable<(int Item, int Quantity)> lines)
    {
        var shape = new StringBuilder().Append(CultureInfo.InvariantCulture, $"{store}/{customer}:");
        foreach (var (item, quantity) in lines)
        {
            shape.Append(CultureInfo.InvariantCulture, $"{item}x{quantity},");
        }

        return shape.ToString();
    }

    private static Dictionary<string, int> Tally(IEnumerable<string> shapes) =>
        shapes.GroupBy(shape => shape, StringComparer.Ordinal).ToDictionary(group => group.Key, group => group.Count(), StringComparer.Ordinal);
}
