using System.ComponentModel;
using System.Globalization;
using MassTransit;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.Extensions.Options;
using Supermarket.Api.Access;
using Supermarket.Api.OpenApi;
using Supermarket.Api.Problems;
using Supermarket.Api.Purchases;
using Supermarket.Api.Workers;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;

namespace Supermarket.Api.Insights;

public static class SalesInsightEndpoints
{
    public static IEndpointRouteBuilder MapSalesInsights(this IEndpointRouteBuilder app)
    {
        var items = app.MapGroup("/items").WithTags("Sales insights").RequireForCourseApi(AccessSetup.AskSales);
        items.MapGet("/store/{storeID}", TopItemsAtStore)
            .WithName("TopItemsAtStore")
            .WithSummary("The 10 best-selling items at a store: of all time, or of the purchases dated from one day to another.")
            .ProducesWorkerProblems();
        // /top10/ is the course spec's path for what returns five stores; /top5/ is the one the seeds' server used.
        foreach (var path in new[] { "/top10/{itemID}", "/top5/{itemID}" })
        {
            items.MapGet(path, TopStoresForItem)
                .WithName(path.Contains("top10", StringComparison.Ordinal) ? "TopStoresForItem" : "TopStoresForItemTop5")
                .WithSummary("The 5 stores that sold the most of an item: of all time, or of the purchases dated from one day to another.")
                .ProducesWorkerProblems();
        }

        return app;
    }

    private static async Task<Results<Ok<TopItemsResponse>, ProblemHttpResult>> TopItemsAtStore(
        [Description(ParameterDescriptions.Store)] string storeID, [AsParameters] SalesDays days, HttpContext http, [AsParameters] SalesInsightServices services)
    {
        var dayError = days.Parse(out var from, out var to);
        if ((PurchasePath.ParseId(storeID, "storeID", services.Catalog.Value.MaxStoreId, out var store) ?? dayError) is { } error)
        {
            return ClientErrors.Invalid(error);
        }

        var question = new TopItemsForStore(store, services.Options.Value.TopItemsCount, from, to);
        return await AskAsync(http, services, (_, deadline) => services.Shards.TopItemsAtStoreAsync(question, deadline),
            (TopItemsAtStore answer) => answer.Refused is { } refused
                ? throw new SalesRangeRefused(refused)
                : new TopItemsResponse([.. answer.Items.Select(i => new ItemCount(i.ItemId, i.Units))]));
    }

    private static async Task<Results<Ok<TopStoresResponse>, ProblemHttpResult>> TopStoresForItem(
        [Description(ParameterDescriptions.Item)] string itemID, [AsParameters] SalesDays days,
        HttpContext http, [AsParameters] SalesInsightServices services)
    {
        var dayError = days.Parse(out var from, out var to);
        if ((PurchasePath.ParseId(itemID, "itemID", services.Catalog.Value.MaxItemId, out var item) ?? dayError) is { } error)
        {
            return ClientErrors.Invalid(error);
        }

        var question = new TopStoresForItem(item, services.Options.Value.TopStoresCount, from, to);
        return await AskAsync(http, services, (_, deadline) => services.Shards.TopStoresForItemAsync(question, deadline),
            (TopStoresOfItem answer) => answer.Refused is { } refused
                ? throw new SalesRangeRefused(refused)
                : new TopStoresResponse([.. answer.Stores.Select(s => new StoreCount(s.StoreId, s.Units))]));
    }

    /// <summary>Its header names the ledger entry counted through: a client can tell its purchases are in.</summary>
    private static Task<Results<Ok<TResponse>, ProblemHttpResult>> AskAsync<TAnswer, TResponse>(HttpContext http,
        SalesInsightServices services, Func<RequestTimeout, CancellationToken, Task<TAnswer>> ask, Func<TAnswer, TResponse> shape)
        where TAnswer : class, ISalesAnswer =>
        services.Questions.AskAsync(http, ask, services.Options.Value.QueryTimeout, "Sales aggregator", (TAnswer answer) =>
        {
            http.Response.Headers[ISalesAnswer.Header] = answer.CountedThrough.ToString(CultureInfo.InvariantCulture);
            return shape(answer);
        });
}

public sealed record SalesInsightServices(
    SalesShardClients Shards, WorkerQuestions Questions, IOptions<CatalogOptions> Catalog, IOptions<InsightOptions> Options);
