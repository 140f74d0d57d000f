using System.Net;
using System.Text.Json;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Insights;

/// <summary>
/// Sales over a range of days (#73): each answer counts exactly the purchases dated in the range (the date in the
/// purchase's URL), as MySQL sums them, beside the all-time answer, which stays the course's.
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class SalesRangeTests(SupermarketSystem system)
{
    private const int Store = 501, OtherStore = 502, Item = 48_501, OtherItem = 48_502;

    private static readonly DateOnly First = new(2021, 4, 1);

    [Fact]
    public async Task A_range_counts_the_purchases_dated_in_it_as_MySQL_sums_them()
    {
        // Four days of one store, and the item at a second store on two of them: each day's mix differs, so a range
        // that took a day too many or too few ranks differently.
        (int Store, int Day, int Item, int Quantity)[] sales =
        [
            (Store, 0, Item, 5), (Store, 0, OtherItem, 1),
            (Store, 1, OtherItem, 7),
            (Store, 3, Item, 2), (Store, 3, OtherItem, 3),
            (OtherStore, 1, Item, 4),
            (OtherStore, 3, Item, 9),
        ];
        var ids = new List<Guid>();
        foreach (var (store, day, item, quantity) in sales)
        {
            ids.Add(await Purchases.RecordAsync(system.Api, store, 501_000 + ids.Count, First.AddDays(day).ToString("yyyyMMdd"), (item, quantity)));
        }

        await TestDatabase.AssertEachStoredOnceAsync([.. ids], TimeSpan.FromSeconds(60));
        (DateOnly? From, DateOnly? To)[] ranges =
        [
            (First, First), (First.AddDays(1), First.AddDays(1)), (First, First.AddDays(1)), (First.AddDays(1), First.AddDays(3)),
            (First.AddDays(2), First.AddDays(2)), (First.AddDays(3), null), (null, First.AddDays(1)), (First.AddDays(-30), First.AddDays(30)),
        ];
        foreach (var (from, to) in ranges)
        {
            var query = Query(from, to);
            // Stored is not yet counted: the first answer may wait for the aggregator; every one after it is exact.
            var expected = await TestDatabase.TopItemsAsync(Store, from, to);
            Assert.Equal(expected, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, Store, query), got => got.SequenceEqual(expected)));
            Assert.Equal(await TestDatabase.TopStoresAsync(Item, from, to), await InsightAnswers.TopStoresAsync(system.Api, Item, query: query));
            Assert.Equal(await TestDatabase.TopStoresAsync(Item, from, to), await InsightAnswers.TopStoresAsync(system.Api, Item, "top5", query: query));
        }

        // Not the all-time answer in disguise: the first day alone has 5 of the item, all time 7 at this store.
        Assert.Equal([(Item, 5L), (OtherItem, 1L)], await InsightAnswers.TopItemsAsync(system.Api, Store, Query(First, First)));
        Assert.Equal(await TestDatabase.TopItemsAsync(Store), await InsightAnswers.TopItemsAsync(system.Api, Store));
    }

    [Theory]
    [InlineData("?from=20210405&to=20210401", "from")]
    [InlineData("?from=20210230", "from")]
    [InlineData("?to=2021-01-01", "to")]
    [InlineData("?from=0", "from")]
    [InlineData("?from=20210101&from=20210102", "from")]
    [InlineData("?from=20200101&to=20211231", "to")]
    public async Task A_range_that_cannot_be_counted_is_a_400_naming_its_parameter(string query, string parameter)
    {
        foreach (var path in new[] { $"/items/store/{Store}", $"/items/top10/{Item}", $"/items/top5/{Item}" })
        {
            using var response = await Eventually.UntilAsync(() => system.Api.GetAsync(path + query),
                answer => answer.StatusCode is not (HttpStatusCode.ServiceUnavailable or HttpStatusCode.GatewayTimeout));
            var body = await response.Content.ReadAsStringAsync();
            Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"GET {path}{query}: {(int)response.StatusCode} {body}");
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
            using var problem = JsonDocument.Parse(body);
            Assert.True(problem.RootElement.GetProperty("errors").TryGetProperty(parameter, out _), $"GET {path}{query} does not name {parameter}: {body}");
        }
    }

    private static string Query(DateOnly? from, DateOnly? to) =>
        "?" + string.Join('&', new[] { from is { } f ? $"from={f:yyyyMMdd}" : null, to is { } t ? $"to={t:yyyyMMdd}" : null }.OfType<string>());
}
