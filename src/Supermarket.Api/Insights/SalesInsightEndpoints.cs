using System.Globalization;
using MassTransit;
using Supermarket.Api.Access;
using Microsoft.Extensions.Options;
using Supermarket.Api.Problems;
using Supermarket.Api.Purchases;
using Supermarket.Api.Workers;
using Supermarket.Contracts.Sales;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Api.Insights;

public static class SalesInsightEndpoints
{
    public static IEndpointRouteBuilder MapSalesInsights(this IEndpointRouteBuilder app)
    {
        var items = app.MapGroup("/items").WithTags("Sales insights").RequireForCourseApi(AccessSetup.AskSales);
        items.MapGet("/store/{storeID}", TopItemsAtStore)
            .WithName("TopItemsAtStore")
            .WithSummary("The 10 best-selling items at a store.")
            .ProducesWorkerAnswer<TopItemsResponse>();
        // /top10/ is the course spec's path for what returns five stores; /top5/ is the one the seeds' server used.
        foreach (var path in new[] { "/top10/{itemID}", "/top5/{itemID}" })
        {
            items.MapGet(path, TopStoresForItem)
                .WithName(path.Contains("top10", StringComparison.Ordinal) ? "TopStoresForItem" : "TopStoresForItemTop5")
                .WithSummary("The 5 stores that sold the most of an item.")
                .ProducesWorkerAnswer<TopStoresResponse>();
        }

        return app;
    }

    private static async Task<IResult> TopItemsAtStore(string storeID, HttpContext http,
        SalesShardClients shards, IOptions<CatalogOptions> catalog, IOptions<InsightOptions> options)
    {
        if (PurchasePath.ParseId(storeID, "storeID", catalog.Value.MaxStoreId, out var store) is { } error)
        {
            return ClientErrors.Invalid(error);
        }

        var question = new TopItemsForStore(store, options.Value.TopItemsCount);
        return await AskAsync(http, options.Value, (_, deadline) => shards.TopItemsAtStoreAsync(question, deadline),
            (TopItemsAtStore answer) => new TopItemsResponse([.. answer.Items.Select(i => new ItemCount(i.ItemId, i.Units))]));
    }

    private static async Task<IResult> TopStoresForItem(string itemID, HttpContext http,
        SalesShardClients shards, IOptions<CatalogOptions> catalog, IOptions<InsightOptions> options)
    {
        if (PurchasePath.ParseId(itemID, "itemID", catalog.Value.MaxItemId, out var item) is { } error)
        {
            return ClientErrors.Invalid(error);
        }

        var question = new TopStoresForItem(item, options.Value.TopStoresCount);
        return await AskAsync(http, options.Value, (_, deadline) => shards.TopStoresForItemAsync(question, deadline),
            (TopStoresOfItem answer) => new TopStoresResponse([.. answer.Stores.Select(s => new StoreCount(s.StoreId, s.Units))]));
    }

    /// <summary>Asks the Sales aggregator's shards; a client that knows where its purchases were stored sees, in a
    /// header, when they are counted.</summary>
    private static Task<IResult> AskAsync<TAnswer, TResponse>(HttpContext http, InsightOptions options,
        Func<RequestTimeout, CancellationToken, Task<TAnswer>> ask, Func<TAnswer, TResponse> shape)
        where TAnswer : class, ISalesAnswer =>
        WorkerQuestions.AskAsync(http, ask, options.QueryTimeout, "Sales aggregator", (TAnswer answer) =>
        {
            http.Response.Headers[ISalesAnswer.Header] = answer.CountedThrough.ToString(CultureInfo.InvariantCulture);
            return TypedResults.Ok(shape(answer));
        });
}
