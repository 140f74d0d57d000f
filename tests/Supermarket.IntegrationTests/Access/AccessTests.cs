using System.Net;
using System.Text.Json;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Access;

/// <summary>Who may do what (docs/security.md), on the real API, broker and writer: purchase history needs an
/// analyst; the course's API is open by default and, with Auth:RequireForCourseApi, needs a till of the store or an
/// analyst; history reads are limited per caller.</summary>
[Collection(nameof(SystemCollection))]
public sealed class AccessTests(SupermarketSystem system)
{
    private const string History = "/purchases/customer/481001";

    [Fact]
    public async Task Purchase_history_is_401_without_a_credential_403_with_a_tills_and_200_with_an_analysts()
    {
        using var anonymous = system.ClientWith(null);
        using var till = system.ClientWith(TestSettings.Till(481));
        using var analyst = system.ClientWith(TestSettings.Analyst("alice"));

        using var unauthenticated = await anonymous.GetAsync(History);
        Assert.Equal(HttpStatusCode.Unauthorized, unauthenticated.StatusCode);
        Assert.Equal("application/problem+json", unauthenticated.Content.Headers.ContentType?.MediaType);
        using var forbidden = await till.GetAsync(History);
        Assert.Equal(HttpStatusCode.Forbidden, forbidden.StatusCode);
        Assert.Equal("application/problem+json", forbidden.Content.Headers.ContentType?.MediaType);
        using var forged = system.ClientWith(Supermarket.Security.LocalCredentials.ForAnalyst(
            new() { SigningKey = Supermarket.Security.LocalCredentials.NewSigningKey() }, "mallory", TimeSpan.FromHours(1)));
        Assert.Equal(HttpStatusCode.Unauthorized, (await forged.GetAsync(History)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await analyst.GetAsync(History)).StatusCode);
    }

    [Fact]
    public async Task The_courses_API_is_open_by_default()
    {
        using var anonymous = system.ClientWith(null);
        var posted = await Purchases.PostAsync(anonymous, "/purchase/481/customer/481002/date/20210307", Purchases.Body((48_100, 1)));
        Assert.Equal(HttpStatusCode.Created, posted.StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await anonymous.GetAsync("/items/store/481")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await anonymous.GetAsync("/items/top10/48100")).StatusCode);
    }

    [Fact]
    public async Task With_the_course_API_required_a_till_records_for_its_own_store_only_and_analysts_ask_the_sales_questions()
    {
        var settings = TestSettings.For();
        settings["Auth:RequireForCourseApi"] = "true";
        await using var api = new SupermarketSystem.ApiFactory(settings);
        using var client = api.CreateClient();
        await SupermarketSystem.WaitUntilReadyAsync(client);
        var body = Purchases.Body((48_200, 1));

        Assert.Equal(HttpStatusCode.Unauthorized, (await PostAsync(api, null, "/purchase/482/customer/482001/date/20210307", body)).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await PostAsync(api, TestSettings.Till(482), "/purchase/482/customer/482001/date/20210307", body)).StatusCode);
        var otherStore = await PostAsync(api, TestSettings.Till(482), "/purchase/481/customer/481003/date/20210307", body);
        Assert.Equal(HttpStatusCode.Forbidden, otherStore.StatusCode);
        Assert.Contains("another store", await otherStore.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Forbidden, (await PostAsync(api, TestSettings.Analyst(), "/purchase/482/customer/482001/date/20210307", body)).StatusCode);

        Assert.Equal(HttpStatusCode.Unauthorized, (await GetAsync(api, null, "/items/store/482")).StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, (await GetAsync(api, TestSettings.Till(482), "/items/store/482")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await GetAsync(api, TestSettings.Analyst(), "/items/store/482")).StatusCode);
    }

    [Fact]
    public async Task History_reads_past_a_callers_limit_get_429_with_Retry_After_and_other_callers_go_on()
    {
        var settings = TestSettings.For();
        settings["HistoryQuestions:ReadsPerMinute"] = "2";
        await using var api = new SupermarketSystem.ApiFactory(settings);
        using var client = api.CreateClient();
        await SupermarketSystem.WaitUntilReadyAsync(client);
        var bob = TestSettings.Analyst("bob");

        Assert.Equal(HttpStatusCode.OK, (await GetAsync(api, bob, History)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await GetAsync(api, bob, History)).StatusCode);
        using var limited = await GetAsync(api, bob, History);
        Assert.Equal(HttpStatusCode.TooManyRequests, limited.StatusCode);
        Assert.NotNull(limited.Headers.RetryAfter);
        Assert.Equal("application/problem+json", limited.Content.Headers.ContentType?.MediaType);
        Assert.Equal(HttpStatusCode.OK, (await GetAsync(api, TestSettings.Analyst("carol"), History)).StatusCode);
    }

    [Fact]
    public async Task The_OpenAPI_document_declares_the_bearer_scheme_and_which_operations_need_it()
    {
        using var document = JsonDocument.Parse(await system.Api.GetStringAsync("/swagger/v1/swagger.json"));
        var root = document.RootElement;
        Assert.Equal("bearer", root.GetProperty("components").GetProperty("securitySchemes").GetProperty("Bearer").GetProperty("scheme").GetString());
        var paths = root.GetProperty("paths");
        Assert.True(paths.GetProperty("/purchases/customer/{custID}").GetProperty("get").TryGetProperty("security", out _));
        Assert.True(paths.GetProperty("/purchases/store/{storeID}").GetProperty("get").TryGetProperty("security", out _));
        // Open by default, so declared open.
        Assert.False(paths.GetProperty("/purchase/{storeID}/customer/{custID}/date/{date}").GetProperty("post").TryGetProperty("security", out _));
    }

    private static async Task<HttpResponseMessage> PostAsync(SupermarketSystem.ApiFactory api, string? credential, string path, string body)
    {
        using var client = ClientWith(api, credential);
        return await Purchases.PostAsync(client, path, body);
    }

    private static async Task<HttpResponseMessage> GetAsync(SupermarketSystem.ApiFactory api, string? credential, string path)
    {
        using var client = ClientWith(api, credential);
        return await client.GetAsync(path);
    }

    /// <summary>A client of that API with the given credential, or none (not the tests' default analyst).</summary>
    private static HttpClient ClientWith(SupermarketSystem.ApiFactory api, string? credential)
    {
        var client = api.CreateClient();
        client.DefaultRequestHeaders.Authorization = credential is null ? null : new("Bearer", credential);
        return client;
    }
}
