using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using MassTransit;
using MassTransit.Testing;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Tests.Purchases;

/// <summary>Every status POST /purchase documents, from the endpoint through the use case to the bus: what a till
/// gets for each way a purchase can go, and what was published for it.</summary>
public sealed class RecordPurchaseEndpointTests
{
    private static CancellationToken Cancelled => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_valid_purchase_is_201_with_its_id_once_published()
    {
        await using var api = new IngestApi(claimAnswer: null);
        using var response = await api.Till().SendAsync(IngestApi.Post(), Cancelled);

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var accepted = await response.Content.ReadFromJsonAsync<PurchaseAccepted>(Cancelled);
        var published = Assert.Single(api.Services.GetRequiredService<ITestHarness>().Published.Select<PurchaseBatchRecorded>(Cancelled));
        var purchase = Assert.Single(published.Context.Message.Purchases);
        Assert.Equal(accepted!.PurchaseId, purchase.PurchaseId);
        Assert.Equal((7, 42, new DateOnly(2021, 3, 14)), (purchase.StoreId, purchase.CustomerId, purchase.Date));
        Assert.Equal([new PurchaseLine(47410, 2)], purchase.Items);
    }

    [Fact]
    public async Task A_retry_with_a_claimed_key_is_201_with_the_same_purchase_id()
    {
        await using var api = new IngestApi(new IdempotencyKeyClaimed(SameRequest: true));
        var till = api.Till();

        using var first = await till.SendAsync(IngestApi.Post(idempotencyKey: "till-7-0001"), Cancelled);
        using var retry = await till.SendAsync(IngestApi.Post(idempotencyKey: "till-7-0001"), Cancelled);

        Assert.Equal((HttpStatusCode.Created, HttpStatusCode.Created), (first.StatusCode, retry.StatusCode));
        Assert.Equal(
            (await first.Content.ReadFromJsonAsync<PurchaseAccepted>(Cancelled))!.PurchaseId,
            (await retry.Content.ReadFromJsonAsync<PurchaseAccepted>(Cancelled))!.PurchaseId);
    }

    [Theory]
    [InlineData("/purchase/7/customer/forty-two/date/20210314", IngestApi.Body, "custID")]
    [InlineData("/purchase/7/customer/42/date/yesterday", IngestApi.Body, "date")]
    [InlineData(IngestApi.Route, """{"items":[]}""", "items")]
    [InlineData(IngestApi.Route, """{"items":[{"ItemID":"47410","numberOfItems:":0}]}""", "items[0].numberOfItems")]
    [InlineData(IngestApi.Route, "not json", "body")]
    public async Task Bad_input_is_400_problem_json_naming_the_field_and_publishes_nothing(string route, string body, string field)
    {
        await using var api = new IngestApi(claimAnswer: null);
        using var response = await api.Till().SendAsync(IngestApi.Post(body, route: route), Cancelled);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var errors = (await response.Content.ReadFromJsonAsync<JsonElement>(Cancelled)).GetProperty("errors");
        Assert.True(errors.TryGetProperty(field, out _), $"errors name {errors}, not {field}");
        Assert.False(api.Services.GetRequiredService<ITestHarness>().Published.Select<PurchaseBatchRecorded>().Any());
    }

    [Fact]
    public async Task A_key_of_invisible_characters_is_400_naming_the_header()
    {
        await using var api = new IngestApi(claimAnswer: null);
        using var response = await api.Till().SendAsync(IngestApi.Post(idempotencyKey: "two words"), Cancelled);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.True((await response.Content.ReadFromJsonAsync<JsonElement>(Cancelled)).GetProperty("errors").TryGetProperty("Idempotency-Key", out _));
    }

    [Fact]
    public async Task No_credential_is_401_and_another_stores_till_is_403()
    {
        await using var api = new IngestApi(claimAnswer: null);

        using var anonymous = await api.Till(store: null).SendAsync(IngestApi.Post(), Cancelled);
        using var otherStore = await api.Till(store: 8).SendAsync(IngestApi.Post(), Cancelled);

        Assert.Equal((HttpStatusCode.Unauthorized, HttpStatusCode.Forbidden), (anonymous.StatusCode, otherStore.StatusCode));
        Assert.Equal("application/problem+json", otherStore.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task A_body_over_the_limit_is_413()
    {
        await using var api = new IngestApi(claimAnswer: null);
        var tooLarge = """{"items":[""" + string.Join(',', Enumerable.Repeat("""{"ItemID":"47410","numberOfItems:":1}""", 2_000)) + "]}";
        Assert.True(tooLarge.Length > new IngestOptions().MaxBodyBytes);

        using var response = await api.Till().SendAsync(IngestApi.Post(tooLarge), Cancelled);

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, response.StatusCode);
    }

    [Fact]
    public async Task A_key_first_used_for_another_purchase_is_422_and_publishes_nothing()
    {
        await using var api = new IngestApi(new IdempotencyKeyClaimed(SameRequest: false));
        using var response = await api.Till().SendAsync(IngestApi.Post(idempotencyKey: "till-7-0001"), Cancelled);

        Assert.Equal(HttpStatusCode.UnprocessableEntity, response.StatusCode);
        Assert.False(api.Services.GetRequiredService<ITestHarness>().Published.Select<PurchaseBatchRecorded>().Any());
    }

    [Fact]
    public async Task A_key_the_writer_does_not_answer_for_is_503_with_retry_after_and_publishes_nothing()
    {
        await using var api = new IngestApi(claimAnswer: null);
        using var response = await api.Till().SendAsync(IngestApi.Post(idempotencyKey: "till-7-0001"), Cancelled);

        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.Equal(new IngestOptions().RetryAfter, response.Headers.RetryAfter?.Delta);
        Assert.False(api.Services.GetRequiredService<ITestHarness>().Published.Select<PurchaseBatchRecorded>().Any());
    }

    [Fact]
    public async Task A_publish_that_fails_before_it_reached_the_broker_is_503_nothing_recorded_with_retry_after()
    {
        await using var api = new IngestApi(claimAnswer: null,
            configurePublish: publish => publish.UseExecute(_ => throw new InvalidOperationException("The connection is gone")));
        using var response = await api.Till().SendAsync(IngestApi.Post(), Cancelled);

        // The harness's filter fails it before it reaches a channel. (Once sent, its failure is a 504: ExactSalesTests.)
        Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        Assert.Contains("nothing was recorded", await response.Content.ReadAsStringAsync(Cancelled));
        Assert.Equal(new IngestOptions().RetryAfter, response.Headers.RetryAfter?.Delta);
    }
}
