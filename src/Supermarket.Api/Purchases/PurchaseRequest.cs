using Microsoft.AspNetCore.Http.HttpResults;
using Supermarket.Api.Problems;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Purchases;
using IdempotencyKeyHeader = Supermarket.Api.Purchases.IdempotencyKey;

namespace Supermarket.Api.Purchases;

/// <summary>A purchase as a till sent it, every part checked.</summary>
public sealed record PurchaseRequest(int StoreId, int CustomerId, DateOnly Date, PurchaseLine[] Items, string? IdempotencyKey)
{
    public static async Task<(PurchaseRequest? Purchase, ProblemHttpResult? Refusal)> ReadAsync(
        string storeId, string customerId, string date, HttpRequest request, CatalogOptions catalog, int maxBodyBytes)
    {
        if (PurchasePath.TryParse(storeId, customerId, date, catalog, out var store, out var customer, out var day) is { } invalidPath)
        {
            return (null, ClientErrors.Invalid(invalidPath));
        }

        if (IdempotencyKeyHeader.TryRead(request, out var idempotencyKey) is { } invalidKey)
        {
            return (null, ClientErrors.Invalid(invalidKey));
        }

        if (!request.HasJsonContentType())
        {
            return (null, ClientErrors.Invalid(new InputError("Content-Type", "must be application/json.")));
        }

        RequestBody? body;
        try
        {
            body = await RequestBody.ReadAsync(request, maxBodyBytes, request.HttpContext.RequestAborted);
        }
        catch (BadHttpRequestException exception)
        {
            // Kestrel's own limits, such as a body that arrives too slowly.
            return (null, TypedResults.Problem(exception.Message, statusCode: exception.StatusCode, title: "The request body could not be read."));
        }

        if (body is null)
        {
            return (null, ClientErrors.TooLarge(maxBodyBytes));
        }

        using (body)
        {
            return PurchaseBodyParser.TryParse(body.Span, catalog, out var lines) is { } invalidBody
                ? (null, ClientErrors.Invalid(invalidBody))
                : (new PurchaseRequest(store, customer, day, lines, idempotencyKey), null);
        }
    }
}
