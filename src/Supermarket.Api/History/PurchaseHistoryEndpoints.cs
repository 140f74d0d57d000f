using System.ComponentModel;
using MassTransit;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;
using Supermarket.Api.Access;
using Supermarket.Api.OpenApi;
using Supermarket.Api.Problems;
using Supermarket.Api.Purchases;
using Supermarket.Api.Workers;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.History;

namespace Supermarket.Api.History;

/// <summary>Purchase history, from the Purchases writer a page at a time: personal data (docs/security.md).</summary>
public static class PurchaseHistoryEndpoints
{
    public static IEndpointRouteBuilder MapPurchaseHistory(this IEndpointRouteBuilder app)
    {
        var purchases = app.MapGroup("/purchases").WithTags("Purchase history")
            .RequireAuthorization(AccessSetup.ReadHistory)
            .RequireRateLimiting(AccessSetup.HistoryReads);
        purchases.MapGet("/store/{storeID}", PurchasesAtStore)
            .WithName("PurchasesAtStore")
            .WithSummary("A store's purchases on one day, newest first, a page at a time.")
            .WithDescription("Pass a page's `continuation` back unchanged, with the same path and date, for the next page; it is null on the last page.")
            .ProducesWorkerProblems()
            .ProducesProblem(StatusCodes.Status429TooManyRequests);
        purchases.MapGet("/customer/{custID}", PurchasesOfCustomer)
            .WithName("PurchasesOfCustomer")
            .WithSummary("A customer's purchases, newest first, optionally between two dates, a page at a time.")
            .WithDescription("`from` and `to` (yyyyMMdd) both include their day. Pass a page's `continuation` back unchanged for the next page; it is null on the last page.")
            .ProducesWorkerProblems()
            .ProducesProblem(StatusCodes.Status429TooManyRequests);
        return app;
    }

    private static async Task<Results<Ok<PurchaseHistoryResponse>, ProblemHttpResult>> PurchasesAtStore(
        [Description(ParameterDescriptions.Store)] string storeID,
        [FromQuery, Description("The day, yyyyMMdd (for example 20210101); required.")] string? date,
        [FromQuery, Description(ParameterDescriptions.Continuation)] string? continuation, HttpContext http, [AsParameters] PurchaseHistoryServices services)
    {
        const ContinuationToken.Kind kind = ContinuationToken.Kind.Store;
        (DateOnly day, HistoryPosition? after) = (default, null);
        var error = PurchasePath.ParseId(storeID, "storeID", services.Catalog.Value.MaxStoreId, out var store);
        error ??= PurchasePath.ParseDate(date, "date", out day);
        error ??= ContinuationToken.TryRead(continuation, kind, store, day, out after);
        if (error is { } invalid)
        {
            return ClientErrors.Invalid(invalid);
        }

        return await AskAsync(http, services, services.AtStore, new PurchasesAtStore(store, day, after, services.Options.Value.PageSize),
            next => ContinuationToken.Write(kind, store, day, next));
    }

    private static async Task<Results<Ok<PurchaseHistoryResponse>, ProblemHttpResult>> PurchasesOfCustomer(
        [Description(ParameterDescriptions.Customer)] string custID,
        [FromQuery, Description("The first day, yyyyMMdd, included; without it, from the first purchase.")] string? from,
        [FromQuery, Description("The last day, yyyyMMdd, included; without it, to the last purchase.")] string? to,
        [FromQuery, Description(ParameterDescriptions.Continuation)] string? continuation, HttpContext http,
        [AsParameters] PurchaseHistoryServices services)
    {
        const ContinuationToken.Kind kind = ContinuationToken.Kind.Customer;
        (DateOnly? first, DateOnly? last, HistoryPosition? after) = (null, null, null);
        var error = PurchasePath.ParseId(custID, "custID", int.MaxValue, out var customer);
        error ??= OptionalDate(from, "from", out first);
        error ??= OptionalDate(to, "to", out last);
        error ??= first > last ? new InputError("to", "must not be before from.") : null;
        error ??= ContinuationToken.TryRead(continuation, kind, customer, default, out after);
        if (error is { } invalid)
        {
            return ClientErrors.Invalid(invalid);
        }

        return await AskAsync(http, services, services.OfCustomer, new PurchasesOfCustomer(customer, first, last, after, services.Options.Value.PageSize),
            next => ContinuationToken.Write(kind, customer, default, next));
    }

    private static InputError? OptionalDate(string? text, string field, out DateOnly? day)
    {
        day = null;
        if (text is null)
        {
            return null;
        }

        var error = PurchasePath.ParseDate(text, field, out var parsed);
        day = parsed;
        return error;
    }

    private static Task<Results<Ok<PurchaseHistoryResponse>, ProblemHttpResult>> AskAsync<TQuestion>(HttpContext http,
        PurchaseHistoryServices services, IRequestClient<TQuestion> client, TQuestion question, Func<HistoryPosition, string> continuation)
        where TQuestion : class
    {
        services.Logger.LogInformation("Purchase history read by {Caller}: {Question}", http.User.Identity?.Name, question);
        return services.Questions.AskAsync(http, client, question, services.Options.Value.QueryTimeout, "Purchases writer",
            (PurchaseHistoryPage page) => new PurchaseHistoryResponse(
                [.. page.Purchases.Select(PurchaseView.From)],
                page.Next is { } next ? continuation(next) : null));
    }
}

/// <summary>What the history endpoints need, bundled with [AsParameters].</summary>
public sealed record PurchaseHistoryServices(
    IRequestClient<PurchasesAtStore> AtStore,
    IRequestClient<PurchasesOfCustomer> OfCustomer,
    WorkerQuestions Questions,
    IOptions<CatalogOptions> Catalog,
    IOptions<HistoryQuestionOptions> Options,
    ILogger<PurchaseHistoryServices> Logger);
