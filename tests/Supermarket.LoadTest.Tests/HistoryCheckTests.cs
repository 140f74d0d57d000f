using System.Net;
using System.Text;
using System.Text.Json;
using Supermarket.LoadTest;
using Supermarket.LoadTest.Scenario;
using Supermarket.LoadTest.Verification;

namespace Supermarket.LoadTest.Tests;

/// <summary>The load test's history check against answers made up here: it passes on the history as sent, and
/// fails on each way a history can be wrong.</summary>
public sealed class HistoryCheckTests
{
    private static readonly LoadOptions Options = LoadOptions.Parse(["--stores", "1", "--date", "20210101"]);
    private static readonly DateTimeOffset During = DateTimeOffset.UtcNow.AddMinutes(1);

    [Fact]
    public async Task The_history_as_sent_passes()
    {
        var (sample, stored) = Sent();

        var results = await CheckAsync(sample, Pages(stored, pageSize: 2));

        Assert.All(results, result => Assert.True(result.Passed, result.What));
        Assert.Equal(6, results.Count);
    }

    [Fact]
    public async Task A_missing_purchase_fails()
    {
        var (sample, stored) = Sent();

        var results = await CheckAsync(sample, Pages(stored.Skip(1).ToList(), pageSize: 2));

        Assert.Contains(results, result => !result.Passed && result.What.Contains("missing", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Other_lines_than_were_sent_fail()
    {
        var (sample, stored) = Sent();
        stored[1] = stored[1] with { Items = [(5, 2)] };

        var results = await CheckAsync(sample, Pages(stored, pageSize: 2));

        Assert.Contains(results, result => !result.Passed && result.What.Contains("missing", StringComparison.Ordinal));
        Assert.Contains(results, result => !result.Passed && result.What.Contains("unexplained", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_purchase_on_two_pages_fails()
    {
        var (sample, stored) = Sent();
        var pages = Pages(stored, pageSize: 2);
        pages[1] = pages[1].Prepend(stored[1]).ToList();

        var results = await CheckAsync(sample, pages);

        Assert.Contains(results, result => !result.Passed && result.What.Contains("none twice", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_page_the_writer_never_answers_fails_instead_of_throwing()
    {
        var (sample, _) = Sent();

        var results = await CheckAsync(sample, pages: null);

        Assert.Contains(results, result => !result.Passed && result.What.Contains("503", StringComparison.Ordinal));
    }

    private sealed record Stored(Guid Id, int Customer, DateTimeOffset ReceivedAt, (int Item, int Quantity)[] Items);

    /// <summary>Three purchases at store 1, two by customer 1001, newest first as the API answers.</summary>
    private static (HistorySample Sample, List<Stored> Stored) Sent()
    {
        var sample = new HistorySample(1);
        var sent = new[] { (1001, new[] { 7, 8 }), (1002, new[] { 9 }), (1001, new[] { 7 }) };
        var stored = new List<Stored>();
        for (var i = 0; i < sent.Length; i++)
        {
            var (customer, items) = sent[i];
            sample.Add(new PlannedPurchase(1, customer, "", [], items, null, Guid.Empty), acknowledged: true);
            stored.Insert(0, new Stored(Guid.NewGuid(), customer, During.AddSeconds(i), [.. items.Select(item => (item, 1))]));
        }

        return (sample, stored);
    }

    private static List<List<Stored>> Pages(List<Stored> stored, int pageSize) => [.. stored.Chunk(pageSize).Select(page => page.ToList())];

    /// <param name="pages">The store's pages; the customer's are the same filtered. Null: every GET answers 503.</param>
    private static async Task<IReadOnlyList<(bool Passed, string What)>> CheckAsync(HistorySample sample, List<List<Stored>>? pages)
    {
        using var api = new HttpClient(new FakeApi(pages)) { BaseAddress = new Uri("http://127.0.0.1/") };
        return await new HistoryCheck(api, Options).VerifyAsync(sample);
    }

    private sealed class FakeApi(List<List<Stored>>? pages) : HttpMessageHandler
    {
        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            if (pages is null)
            {
                return Task.FromResult(new HttpResponseMessage(HttpStatusCode.ServiceUnavailable));
            }

            var query = request.RequestUri!.Query;
            var customer = request.RequestUri.AbsolutePath.StartsWith("/purchases/customer/", StringComparison.Ordinal)
                ? int.Parse(request.RequestUri.Segments[^1], System.Globalization.CultureInfo.InvariantCulture)
                : (int?)null;
            var mine = customer is null ? pages : [pages.SelectMany(page => page).Where(p => p.Customer == customer).ToList()];
            var index = query.Contains("continuation=", StringComparison.Ordinal) ? int.Parse(query[(query.IndexOf("continuation=", StringComparison.Ordinal) + 13)..], System.Globalization.CultureInfo.InvariantCulture) : 0;
            var body = JsonSerializer.Serialize(new
            {
                purchases = mine[index].Select(p => new
                {
                    purchaseID = p.Id,
                    storeID = 1,
                    custID = p.Customer,
                    date = "20210101",
                    receivedAt = p.ReceivedAt,
                    items = p.Items.Select(line => new { itemID = line.Item, numberOfItems = line.Quantity }),
                }),
                continuation = index + 1 < mine.Count ? (index + 1).ToString(System.Globalization.CultureInfo.InvariantCulture) : null,
            });
            return Task.FromResult(new HttpResponseMessage(HttpStatusCode.OK) { Content = new StringContent(body, Encoding.UTF8, "application/json") });
        }
    }
}
