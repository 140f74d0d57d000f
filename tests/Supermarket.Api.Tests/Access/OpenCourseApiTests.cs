using System.Net;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.Api.Access;
using Supermarket.Api.Tests.Purchases;

namespace Supermarket.Api.Tests.Access;

/// <summary>
/// What a purchase pays for on its way through the API, beyond its own work (docs/performance.md, "The API's
/// per-request pieces"): an open course API carries no authorization policy (a check that lets everyone through, on
/// every POST), and the metrics record nothing per request that nobody reads (routing's, authentication's,
/// authorization's and the memory pool's instruments).
/// </summary>
public sealed class OpenCourseApiTests
{
    private static CancellationToken Cancelled => TestContext.Current.CancellationToken;

    [Theory]
    [InlineData(false, null, null)]
    [InlineData(true, AccessSetup.RecordPurchases, AccessSetup.AskSales)]
    public async Task The_course_api_carries_a_policy_only_when_it_requires_credentials(bool required, string? purchases, string? sales)
    {
        await using var api = new IngestApi(claimAnswer: null).WithWebHostBuilder(builder =>
            builder.UseSetting("Auth:RequireForCourseApi", required ? "true" : "false"));
        var endpoints = api.Services.GetRequiredService<EndpointDataSource>().Endpoints;

        string? Policy(string name) => endpoints.Single(endpoint => endpoint.Metadata.GetMetadata<IEndpointNameMetadata>()?.EndpointName == name)
            .Metadata.GetOrderedMetadata<IAuthorizeData>().SingleOrDefault()?.Policy;

        Assert.Equal(
            (purchases, sales, sales, AccessSetup.ReadHistory),
            (Policy("RecordPurchase"), Policy("TopItemsAtStore"), Policy("TopStoresForItem"), Policy("PurchasesAtStore")));
    }

    [Fact]
    public async Task A_purchase_is_measured_by_its_request_duration_and_not_by_routing_authentication_or_buffers()
    {
        // The course's API open, as by default; the management endpoints on the public port, where the test server answers.
        await using var api = new IngestApi(claimAnswer: null).WithWebHostBuilder(builder => builder
            .UseSetting("Auth:RequireForCourseApi", "false")
            .UseSetting("Management:Url", ""));
        var till = api.CreateClient();
        using var posted = await till.SendAsync(IngestApi.Post(), Cancelled);
        Assert.Equal(HttpStatusCode.Created, posted.StatusCode);

        var metrics = await till.GetStringAsync("/metrics", Cancelled);

        Assert.Matches(@"(?m)^http_server_request_duration_seconds_count\{.*http_response_status_code=""201"".*\} 1", metrics);
        Assert.DoesNotMatch(@"(?m)^aspnetcore_(routing|authentication|authorization|memory_pool)_", metrics);
    }
}
