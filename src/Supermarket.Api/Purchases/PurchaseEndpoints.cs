using System.ComponentModel;
using System.Text.Json.Serialization;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.Extensions.Options;
using Supermarket.Api.Access;
using Supermarket.Api.OpenApi;
using Supermarket.Api.Problems;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Api.Purchases;

public static class PurchaseEndpoints
{
    public static IEndpointRouteBuilder MapPurchases(this IEndpointRouteBuilder app)
    {
        var purchases = app.MapGroup("/purchase").WithTags("Purchases")
            .RequireForCourseApi(AccessSetup.RecordPurchases, tills => tills.AddEndpointFilter<TillOfTheStore>());
        purchases.MapPost("/{storeID}/customer/{custID}/date/{date}", RecordPurchase)
            .WithName("RecordPurchase")
            .WithSummary("Records one purchase; 201 once the broker has confirmed it.")
            .WithDescription("Send an Idempotency-Key header (1-128 visible ASCII characters, unique per store) to make retries safe: " +
                "the same store and key always record one purchase, however often it is sent. The same key with a different purchase " +
                "(customer, date or lines) is refused with 422 and records nothing.")
            // Documented rather than declared with Accepts(): a declared content type makes routing answer a wrong
            // one with a bare 415, where the API promises a problem+json 400 naming the header.
            .WithMetadata(new DocumentedRequestBody(typeof(PurchaseBodyExample)))
            .Produces<PurchaseAccepted>(StatusCodes.Status201Created)
            .ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status401Unauthorized)
            .ProducesProblem(StatusCodes.Status403Forbidden)
            .ProducesProblem(StatusCodes.Status413PayloadTooLarge)
            .ProducesProblem(StatusCodes.Status422UnprocessableEntity)
            .ProducesProblem(StatusCodes.Status503ServiceUnavailable)
            .ProducesProblem(StatusCodes.Status504GatewayTimeout);
        return app;
    }

    private static async Task<Results<Created<PurchaseAccepted>, ProblemHttpResult>> RecordPurchase(
        [Description(ParameterDescriptions.Store)] string storeID, [Description(ParameterDescriptions.Customer)] string custID,
        [Description("The day of the purchase, yyyyMMdd (for example 20210101).")] string date,
        HttpRequest request, [AsParameters] PurchaseServices services)
    {
        var (purchase, refusal) = await PurchaseRequest.ReadAsync(
            storeID, custID, date, request, services.Catalog.Value, services.Options.Value.MaxBodyBytes);
        if (purchase is null)
        {
            return refusal!;
        }

        var recording = await services.Ingest.RecordAsync(purchase, request.HttpContext.RequestAborted);
        var retryAfter = services.Options.Value.RetryAfter;
        return recording.Outcome switch
        {
            RecordingOutcome.Recorded => PurchaseAccepted.Created(recording.PurchaseId),
            RecordingOutcome.KeyUsedForAnotherPurchase => ClientErrors.KeyReused(IdempotencyKey.Header),
            RecordingOutcome.KeyUnchecked => ClientErrors.KeyUnchecked(request.HttpContext, retryAfter),
            RecordingOutcome.OutcomeUnknown => ClientErrors.PurchaseOutcomeUnknown(request.HttpContext, retryAfter),
            _ => ClientErrors.PurchaseNotRecorded(request.HttpContext, retryAfter),
        };
    }
}

public sealed record PurchaseServices(
    PurchaseIngest Ingest, IOptions<CatalogOptions> Catalog, IOptions<IngestOptions> Options);

public sealed record PurchaseAccepted(string Message, Guid PurchaseId)
{
    public static Created<PurchaseAccepted> Created(Guid purchaseId) => TypedResults.Created((string?)null, new PurchaseAccepted("Purchase recorded.", purchaseId));
}

/// <summary>Documents the body only; <see cref="PurchaseBodyParser"/> reads the real thing.</summary>
public sealed record PurchaseBodyExample(PurchaseItemExample[] Items);

public sealed record PurchaseItemExample(
    [property: JsonPropertyName("ItemID")] string ItemId,
    [property: JsonPropertyName("numberOfItems:")] int NumberOfItems);
