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
            .RequireAuthorization(AccessSetup.RecordPurchases)
            .AddEndpointFilter<TillOfTheStore>();
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
            .ProducesProblem(StatusCodes.Status503ServiceUnavailable);
        return app;
    }

    private static async Task<IResult> RecordPurchase(
        string storeID, string custID, string date, HttpContext http, PurchaseIngest ingest, IdempotencyKeyClaims claims,
        IOptions<CatalogOptions> catalog, IOptions<IngestOptions> options, IngestMetrics metrics)
    {
        var result = await TryRecordAsync(storeID, custID, date, http, ingest, claims, catalog.Value, options.Value);
        metrics.Answered((result as IStatusCodeHttpResult)?.StatusCode ?? StatusCodes.Status200OK);
        return result;
    }

    private static async Task<IResult> TryRecordAsync(
        string storeID, string custID, string date, HttpContext http, PurchaseIngest ingest, IdempotencyKeyClaims claims,
        CatalogOptions catalog, IngestOptions options)
    {
        using var deadline = new RequestDeadline(options.RequestDeadline, http.RequestAborted);
        var pathError = PurchasePath.TryParse(storeID, custID, date, catalog, out var store, out var customer, out var day);
        if (pathError is { } invalidPath)
        {
            return ClientErrors.Invalid(invalidPath);
        }

        if (IdempotencyKey.TryRead(http.Request, out var idempotencyKey) is { } invalidKey)
        {
            return ClientErrors.Invalid(invalidKey);
        }

        if (!http.Request.HasJsonContentType())
        {
            return ClientErrors.Invalid(new InputError("Content-Type", "must be application/json."));
        }

        RequestBody? body;
        try
        {
            body = await RequestBody.ReadAsync(http.Request, options.MaxBodyBytes, deadline.RequestAborted);
        }
        catch (BadHttpRequestException exception)
        {
            // Kestrel's own limits, such as a body that arrives too slowly.
            return TypedResults.Problem(exception.Message, statusCode: exception.StatusCode, title: "The request body could not be read.");
        }

        if (body is null)
        {
            return ClientErrors.TooLarge(options.MaxBodyBytes);
        }

        using (body)
        {
            if (PurchaseBodyParser.TryParse(body.Span, catalog, out var lines) is { } invalidBody)
            {
                return ClientErrors.Invalid(invalidBody);
            }

            if (!ingest.BrokerWorthTrying())
            {
                return ClientErrors.PurchaseUnconfirmed(http, options.RetryAfter);
            }

            var purchase = ingest.Stamp(store, customer, day, lines, idempotencyKey);
            if (idempotencyKey is not null)
            {
                switch (await claims.ClaimAsync(purchase, idempotencyKey, deadline))
                {
                    case KeyClaim.OtherRequest:
                        return ClientErrors.KeyReused(IdempotencyKey.Header);
                    case KeyClaim.Unanswered:
                        return ClientErrors.KeyUnchecked(http, options.RetryAfter);
                }
            }

            if (!await ingest.PublishAsync(purchase, deadline))
            {
                return ClientErrors.PurchaseUnconfirmed(http, options.RetryAfter);
            }

            return TypedResults.Created((string?)null, new PurchaseAccepted("Purchase recorded.", purchase.PurchaseId));
        }
    }
}
