using System.Net;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.History;

/// <summary>The purchase history endpoints, end to end: POST → fanout → writer → MySQL, then GET → request/response →
/// the writer's keyset query → pages. Pages hold 4 purchases here (TestSettings), so a handful crosses several pages.
/// Each test uses stores, dates and customers of its own.</summary>
[Collection(nameof(SystemCollection))]
public sealed class PurchaseHistoryTests(SupermarketSystem system)
{
    // A day past the last purchase date the API takes (PurchaseDates.Latest), whatever today is.
    private static readonly string AfterLatest = DateTime.UtcNow.AddYears(1).AddDays(2).ToString("yyyyMMdd", System.Globalization.CultureInfo.InvariantCulture);

    [Fact]
    public async Task A_stores_day_comes_back_exactly_as_posted_newest_first()
    {
        const int store = 461;
        const string date = "20220315";
        var posted = new List<(Guid Id, int Customer, (int, int)[] Items)>();
        for (var i = 0; i < 10; i++)
        {
            (int, int)[] items = [.. Enumerable.Range(0, 1 + (i % 3)).Select(line => (70000 + (i * 10) + line, 1 + i + (line * 7)))];
            posted.Add((await Purchases.RecordAsync(system.Api, store, 461000 + i, date, items), 461000 + i, items));
        }

        // Neither another day at the store nor the same day at another store belongs to the answer.
        await Purchases.RecordAsync(system.Api, store, 461100, "20220316", (70500, 1));
        await Purchases.RecordAsync(system.Api, store + 1, 461101, date, (70501, 1));

        var (history, pages) = await Eventually.UntilAsync(
            () => HistoryPages.AllAsync(system.Api, $"/purchases/store/{store}?date={date}"), got => got.Purchases.Count >= 10);

        Assert.Equal(3, pages);
        posted.Reverse();
        Assert.Equal(posted.Select(p => p.Id), history.Select(p => p.PurchaseId));
        Assert.Equal(posted.Select(p => p.Customer), history.Select(p => p.CustomerId));
        Assert.Equal(posted.Select(p => p.Items), history.Select(p => p.Items), new LinesComparer());
        Assert.All(history, p => Assert.Equal((store, date), (p.StoreId, p.Date)));
        Assert.Equal(history.OrderByDescending(p => p.ReceivedAt).Select(p => p.PurchaseId), history.Select(p => p.PurchaseId));
    }

    [Fact]
    public async Task A_customers_purchases_come_back_newest_date_first_within_the_dates_asked()
    {
        const int customer = 46_200_001;
        var posted = new List<(Guid Id, string Date)>();
        foreach (var (store, date) in new[] { (463, "20220310"), (463, "20220312"), (464, "20220312"), (463, "20220314"), (463, "20220310") })
        {
            posted.Add((await Purchases.RecordAsync(system.Api, store, customer, date, (71000 + posted.Count, posted.Count + 1)), date));
        }

        var (all, _) = await Eventually.UntilAsync(
            () => HistoryPages.AllAsync(system.Api, $"/purchases/customer/{customer}"), got => got.Purchases.Count >= 5);

        // Newest date first; within a date, the latest received first.
        Guid[] newestFirst = [.. posted.Select((p, order) => (p, order)).OrderByDescending(x => x.p.Date, StringComparer.Ordinal)
            .ThenByDescending(x => x.order).Select(x => x.p.Id)];
        Assert.Equal(newestFirst, all.Select(p => p.PurchaseId));
        Assert.Equal([(71000, 1), (71001, 2), (71002, 3), (71003, 4), (71004, 5)],
            posted.Select(p => all.Single(h => h.PurchaseId == p.Id).Items.Single()));

        var (between, _) = await HistoryPages.AllAsync(system.Api, $"/purchases/customer/{customer}?from=20220311&to=20220313");
        Assert.Equal(newestFirst.Where(id => posted.Single(p => p.Id == id).Date == "20220312"), between.Select(p => p.PurchaseId));

        var (since, _) = await HistoryPages.AllAsync(system.Api, $"/purchases/customer/{customer}?from=20220312");
        Assert.Equal(3, since.Count);
        var (until, _) = await HistoryPages.AllAsync(system.Api, $"/purchases/customer/{customer}?to=20220310");
        Assert.Equal(2, until.Count);
    }

    [Fact]
    public async Task Pages_of_a_store_join_up_with_no_gap_or_repeat_while_purchases_keep_arriving()
    {
        const int store = 465;
        const string date = "20220320";
        var before = new List<Guid>();
        for (var i = 0; i < 10; i++)
        {
            before.Add(await Purchases.RecordAsync(system.Api, store, 465000 + i, date, (72000 + i, 1)));
        }

        await Eventually.UntilAsync(() => HistoryPages.AllAsync(system.Api, $"/purchases/store/{store}?date={date}"), got => got.Purchases.Count >= 10);

        var arrived = new List<Guid>();
        var (paged, _) = await HistoryPages.AllAsync(system.Api, $"/purchases/store/{store}?date={date}", async () =>
        {
            for (var i = 0; i < 2; i++)
            {
                arrived.Add(await Purchases.RecordAsync(system.Api, store, 465100 + arrived.Count, date, (72100, 1)));
            }

            // Stored before the next page is read, so a shifting page would show.
            await Eventually.UntilAsync(() => HistoryPages.AllAsync(system.Api, $"/purchases/store/{store}?date={date}"),
                got => arrived.All(id => got.Purchases.Any(p => p.PurchaseId == id)));
        });

        before.Reverse();
        Assert.Equal(before, paged.Select(p => p.PurchaseId));
        Assert.Equal(4, arrived.Count);
        var (after, _) = await HistoryPages.AllAsync(system.Api, $"/purchases/store/{store}?date={date}");
        Assert.Equal(14, after.Select(p => p.PurchaseId).Distinct().Count());
    }

    [Fact]
    public async Task Pages_of_a_customer_hold_every_earlier_purchase_once_while_older_and_newer_ones_arrive()
    {
        const int customer = 46_600_001;
        var before = new List<Guid>();
        for (var day = 1; day <= 9; day++)
        {
            before.Add(await Purchases.RecordAsync(system.Api, 466, customer, $"202203{day:00}", (73000 + day, day)));
        }

        await Eventually.UntilAsync(() => HistoryPages.AllAsync(system.Api, $"/purchases/customer/{customer}"), got => got.Purchases.Count >= 9);

        // Each time: one purchase dated before every page so far and one after them all.
        var arrived = new List<Guid>();
        var (paged, _) = await HistoryPages.AllAsync(system.Api, $"/purchases/customer/{customer}", async () =>
        {
            arrived.Add(await Purchases.RecordAsync(system.Api, 466, customer, "20220301", (73100, 1)));
            arrived.Add(await Purchases.RecordAsync(system.Api, 466, customer, "20220310", (73101, 1)));
            await Eventually.UntilAsync(() => HistoryPages.AllAsync(system.Api, $"/purchases/customer/{customer}"),
                got => arrived.All(id => got.Purchases.Any(p => p.PurchaseId == id)));
        });

        var ids = paged.Select(p => p.PurchaseId).ToList();
        Assert.Equal(ids.Count, ids.Distinct().Count());
        Assert.All(before, id => Assert.Single(ids, id));
        Assert.All(ids, id => Assert.True(before.Contains(id) || arrived.Contains(id)));
        Assert.Equal(paged.OrderByDescending(p => p.Date, StringComparer.Ordinal).ThenByDescending(p => p.ReceivedAt), paged);
    }

    [Fact]
    public async Task Nothing_stored_is_an_empty_last_page()
    {
        foreach (var path in new[] { "/purchases/store/467?date=20000101", "/purchases/customer/46700000", "/purchases/customer/1?from=20000101&to=20000101" })
        {
            var (purchases, continuation) = await HistoryPages.PageAsync(system.Api, path);
            Assert.Empty(purchases);
            Assert.Null(continuation);
        }
    }

    [Fact]
    public async Task Malformed_ids_dates_and_continuations_are_400()
    {
        const int store = 468;
        const string date = "20220322";
        for (var i = 0; i < 5; i++)
        {
            await Purchases.RecordAsync(system.Api, store, 46_800_001, date, (74000 + i, 1));
        }

        var (_, storeToken) = await Eventually.UntilAsync(
            () => HistoryPages.PageAsync(system.Api, $"/purchases/store/{store}?date={date}"), got => got.Continuation is not null);
        var (_, customerToken) = await HistoryPages.PageAsync(system.Api, "/purchases/customer/46800001");
        Assert.NotNull(storeToken);
        Assert.NotNull(customerToken);
        var tampered = storeToken![..^2] + (storeToken[^2] == 'A' ? "B" : "A") + storeToken[^1];

        var paths = new[]
        {
            "/purchases/store/0?date=20220322", "/purchases/store/513?date=20220322", "/purchases/store/x?date=20220322",
            "/purchases/store/468", "/purchases/store/468?date=2022032", "/purchases/store/468?date=20220230", "/purchases/store/468?date=2022-03-22",
            "/purchases/customer/abc", "/purchases/customer/0", "/purchases/customer/1?from=2022", "/purchases/customer/1?to=20221301",
            "/purchases/customer/1?from=20220302&to=20220301",
            // Outside the purchase dates the API takes (PurchaseDates).
            "/purchases/store/468?date=19991231", "/purchases/customer/1?from=19991231", $"/purchases/customer/1?to={AfterLatest}",
            $"/purchases/store/{store}?date={date}&continuation=not-a-token",
            $"/purchases/store/{store}?date={date}&continuation={new string('A', 46)}",
            // A real token, but for another store, another day, or the other question.
            $"/purchases/store/{store + 1}?date={date}&continuation={storeToken}",
            $"/purchases/store/{store}?date=20220323&continuation={storeToken}",
            $"/purchases/customer/46800001?continuation={storeToken}",
            $"/purchases/store/{store}?date={date}&continuation={customerToken}",
            $"/purchases/customer/46800002?continuation={customerToken}",
        };
        foreach (var path in paths)
        {
            var response = await system.Api.GetAsync(path);
            Assert.True(response.StatusCode == HttpStatusCode.BadRequest, $"GET {path}: {(int)response.StatusCode}");
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        }

        // A changed byte in the position is still a position: it may answer another page, never a 5xx.
        var altered = await system.Api.GetAsync($"/purchases/store/{store}?date={date}&continuation={tampered}");
        Assert.True(altered.StatusCode is HttpStatusCode.OK or HttpStatusCode.BadRequest, $"tampered token: {(int)altered.StatusCode}");
    }

    [Fact]
    public Task With_the_writer_down_a_history_GET_fails_promptly_with_504() =>
        WorkerAway.AssertPromptGatewayTimeoutAsync(system, system.StopWriterAsync, system.StartWriterAsync, "/purchases/store/1?date=20210101");

    [Fact]
    public async Task Swagger_documents_both_questions_with_their_parameters_and_an_example_page()
    {
        using var document = System.Text.Json.JsonDocument.Parse(await system.Api.GetStringAsync("/swagger/v1/swagger.json"));
        var paths = document.RootElement.GetProperty("paths");
        var store = paths.GetProperty("/purchases/store/{storeID}").GetProperty("get");
        var customer = paths.GetProperty("/purchases/customer/{custID}").GetProperty("get");

        Assert.Equal(["storeID", "date", "continuation"], store.GetProperty("parameters").EnumerateArray().Select(p => p.GetProperty("name").GetString()));
        Assert.Equal(["custID", "from", "to", "continuation"], customer.GetProperty("parameters").EnumerateArray().Select(p => p.GetProperty("name").GetString()));
        var page = document.RootElement.GetProperty("components").GetProperty("schemas").GetProperty("PurchaseHistoryResponse");
        Assert.True(page.TryGetProperty("examples", out var examples) || page.TryGetProperty("example", out examples), page.ToString());
        Assert.Contains("continuation", examples.ToString(), StringComparison.Ordinal);
    }

    private sealed class LinesComparer : IEqualityComparer<(int, int)[]>
    {
        public bool Equals((int, int)[]? x, (int, int)[]? y) => x is not null && y is not null && x.SequenceEqual(y);

        public int GetHashCode((int, int)[] obj) => obj.Length;
    }
}
