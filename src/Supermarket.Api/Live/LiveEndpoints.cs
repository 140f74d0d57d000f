using System.ComponentModel;
using System.Diagnostics;
using System.Net.ServerSentEvents;
using System.Runtime.CompilerServices;
using System.Text.Json;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;
using Supermarket.Api.Access;
using Supermarket.Api.Insights;
using Supermarket.Api.OpenApi;
using Supermarket.Api.Problems;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Api.Live;

/// <summary>The live page (wwwroot/index.html, served at /) and the server-sent events it reads.</summary>
public static class LiveEndpoints
{
    public static IEndpointRouteBuilder MapLiveSales(this IEndpointRouteBuilder app)
    {
        var live = app.MapGroup("/live").WithTags("Live page").RequireForCourseApi(AccessSetup.AskSales);
        live.MapGet("/sales", Stream)
            .WithName("LiveSales")
            .WithSummary("Server-sent events for the live page: the 'store' and 'item' rankings each time they are asked, 'chain' once an update.")
            .ProducesValidationProblem();
        return app;
    }

    private static Results<ServerSentEventsResult<string>, ProblemHttpResult> Stream(
        [AsParameters] LiveSelection selection, [AsParameters] SalesDays days, [AsParameters] LiveServices services, HttpContext http)
    {
        var catalog = services.Catalog;
        var dayError = days.Parse(out var from, out var to);
        var storeError = PurchasePath.ParseId(selection.Store ?? "", "store", catalog.Value.MaxStoreId, out var store);
        var itemError = PurchasePath.ParseId(selection.Item ?? "", "item", catalog.Value.MaxItemId, out var item);
        if ((storeError ?? itemError ?? dayError) is { } error)
        {
            return ClientErrors.Invalid(error);
        }

        // nginx, in front of several APIs, passes each event on at once rather than buffering the stream.
        http.Response.Headers["X-Accel-Buffering"] = "no";
        return TypedResults.ServerSentEvents(EventsAsync(services.Live,
            new LiveQuestion(LiveQuestionKind.TopItemsAtStore, store, from, to),
            new LiveQuestion(LiveQuestionKind.TopStoresForItem, item, from, to), services.Lifetime.ApplicationStopping, http.RequestAborted));
    }

    /// <summary>Ends when the API stops too: a page reconnects itself; an open stream would hold the stop up.</summary>
    private static async IAsyncEnumerable<SseItem<string>> EventsAsync(LiveSales live, LiveQuestion storeQuestion, LiveQuestion itemQuestion,
        CancellationToken apiStopping, [EnumeratorCancellation] CancellationToken pageGone)
    {
        using var ended = CancellationTokenSource.CreateLinkedTokenSource(apiStopping, pageGone);
        using var store = live.Watch(storeQuestion);
        using var item = live.Watch(itemQuestion);
        if (store is null || item is null)
        {
            yield return Event("refused", new { message = "The live page watches as many questions as it may (Live:MaxQuestionsWatched); try again later." });
            yield break;
        }

        LiveRanking? storeSent = null, itemSent = null;
        var chainDue = 0L;
        while (!ended.IsCancellationRequested)
        {
            // Before the rankings are read: one published in between completes it.
            var changed = Task.WhenAny(store.Changed, item.Changed);
            if (!ReferenceEquals(store.Latest, storeSent))
            {
                storeSent = store.Latest;
                yield return Event("store", storeSent);
            }

            if (!ReferenceEquals(item.Latest, itemSent))
            {
                itemSent = item.Latest;
                yield return Event("item", itemSent);
            }

            if (Stopwatch.GetTimestamp() >= chainDue)
            {
                chainDue = Stopwatch.GetTimestamp() + (long)(live.UpdateInterval.TotalSeconds * Stopwatch.Frequency);
                yield return Event("chain", live.Chain());
            }

            if (!await NextUpdateAsync(changed, live.UpdateInterval, ended.Token))
            {
                yield break;
            }
        }
    }

    private static async Task<bool> NextUpdateAsync(Task changed, TimeSpan update, CancellationToken pageGone)
    {
        try
        {
            await changed.WaitAsync(update, pageGone);
        }
        catch (TimeoutException)
        {
        }
        catch (OperationCanceledException)
        {
            return false;
        }

        return true;
    }

    private static SseItem<string> Event<T>(string type, T data) => new(JsonSerializer.Serialize(data, JsonSerializerOptions.Web), type);
}

public sealed record LiveSelection(
    [property: FromQuery(Name = "store"), Description(ParameterDescriptions.Store)] string? Store,
    [property: FromQuery(Name = "item"), Description(ParameterDescriptions.Item)] string? Item);

/// <summary>What the live stream needs, bundled with [AsParameters].</summary>
public sealed record LiveServices(LiveSales Live, IOptions<CatalogOptions> Catalog, IHostApplicationLifetime Lifetime);
