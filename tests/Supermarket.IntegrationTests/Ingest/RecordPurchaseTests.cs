using System.Net;
using System.Text.Json;
using MassTransit;
using Supermarket.Contracts.Purchases;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Ingest;

[Collection(nameof(SystemCollection))]
public sealed class RecordPurchaseTests(SupermarketSystem system)
{
    [Fact]
    public async Task A_posted_purchase_lands_in_MySQL_with_the_same_values()
    {
        var id = await Purchases.RecordAsync(system.Api, 17, 17042, "20210315", (47410, 1), (20998, 3));

        var stored = await Eventually.UntilAsync(() => TestDatabase.FindAsync(id), found => found is not null);

        Assert.NotNull(stored);
        Assert.Equal(17, stored.StoreId);
        Assert.Equal(17042, stored.CustomerId);
        Assert.Equal(new DateOnly(2021, 3, 15), stored.Date);
        Assert.Equal([(47410, 1), (20998, 3)], stored.Lines);
    }

    [Fact]
    public async Task The_201_body_names_the_purchase()
    {
        var response = await Purchases.PostAsync(system.Api, "/purchase/3/customer/3001/date/20210101",
            """{"items":[{"ItemID":5,"numberOfItems":2}]}""");

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var body = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;
        Assert.False(string.IsNullOrEmpty(body.GetProperty("message").GetString()));
        Assert.Equal(7, body.GetProperty("purchaseId").GetGuid().ToString("D")[14] - '0'); // a UUIDv7: time-ordered
    }

    [Fact]
    public async Task A_redelivered_purchase_makes_one_row()
    {
        var purchase = new PurchaseRecorded(Guid.CreateVersion7(), 9, 9001, new DateOnly(2021, 1, 1),
            [new PurchaseLine(11, 1), new PurchaseLine(12, 2)], DateTimeOffset.UtcNow);

        await system.Bus.Publish(new PurchaseBatchRecorded([purchase]));
        await system.Bus.Publish(new PurchaseBatchRecorded([purchase]));
        await Eventually.UntilAsync(() => TestDatabase.CountPurchasesAsync(purchase.PurchaseId), count => count > 0);
        // Give the second copy every chance to be written too, then check it was not.
        await Task.Delay(TimeSpan.FromSeconds(1));

        Assert.Equal(1, await TestDatabase.CountPurchasesAsync(purchase.PurchaseId));
        Assert.Equal(2, await TestDatabase.CountLinesAsync(purchase.PurchaseId));
    }

    [Fact]
    public async Task A_redelivered_batch_makes_one_row_per_purchase_even_overlapping_other_batches()
    {
        PurchaseRecorded[] purchases =
        [
            new(Guid.CreateVersion7(), 10, 10001, new DateOnly(2021, 1, 1), [new PurchaseLine(21, 1)], DateTimeOffset.UtcNow),
            new(Guid.CreateVersion7(), 10, 10002, new DateOnly(2021, 1, 1), [new PurchaseLine(22, 2), new PurchaseLine(23, 3)], DateTimeOffset.UtcNow),
        ];

        await system.Bus.Publish(new PurchaseBatchRecorded(purchases));
        await system.Bus.Publish(new PurchaseBatchRecorded(purchases));
        await system.Bus.Publish(new PurchaseBatchRecorded([purchases[1]]));
        await Eventually.UntilAsync(() => TestDatabase.CountPurchasesAsync(purchases[1].PurchaseId), count => count > 0);
        await Task.Delay(TimeSpan.FromSeconds(1));

        Assert.Equal(1, await TestDatabase.CountPurchasesAsync(purchases[0].PurchaseId));
        Assert.Equal(1, await TestDatabase.CountPurchasesAsync(purchases[1].PurchaseId));
        Assert.Equal(2, await TestDatabase.CountLinesAsync(purchases[1].PurchaseId));
    }

    [Fact]
    public async Task A_purchase_retried_with_its_idempotency_key_is_recorded_and_counted_once()
    {
        const int store = 411;
        async Task<Guid> Post()
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, $"/purchase/{store}/customer/411001/date/20210101")
            {
                Content = new StringContent(Purchases.Body((81001, 3)), System.Text.Encoding.UTF8, "application/json"),
                Headers = { { "Idempotency-Key", "till-1/0001" } },
            };
            using var response = await system.Api.SendAsync(request);
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            return JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement.GetProperty("purchaseId").GetGuid();
        }

        var id = await Post();
        Assert.Equal(id, await Post());
        Assert.Equal(PurchaseIds.ForIdempotencyKey(store, new DateOnly(2021, 1, 1), "till-1/0001"), id);

        await Eventually.UntilAsync(() => TestDatabase.CountPurchasesAsync(id), count => count > 0);
        await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, store), got => got.Length > 0);
        await Task.Delay(TimeSpan.FromSeconds(1));
        Assert.Equal(1, await TestDatabase.CountPurchasesAsync(id));
        Assert.Equal([(81001, 3L)], await InsightAnswers.TopItemsAsync(system.Api, store));
    }

    [Theory]
    [InlineData("a-key-longer-than-128-characters-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")]
    [InlineData("has space")]
    [InlineData("é")]
    public async Task A_malformed_idempotency_key_is_a_400_naming_the_header(string key)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, "/purchase/3/customer/3001/date/20210101")
        {
            Content = new StringContent(Purchases.Body((5, 1)), System.Text.Encoding.UTF8, "application/json"),
        };
        request.Headers.TryAddWithoutValidation("Idempotency-Key", key);
        using var response = await system.Api.SendAsync(request);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("Idempotency-Key", await response.Content.ReadAsStringAsync());
    }
}
