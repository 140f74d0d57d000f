using Microsoft.AspNetCore.Http.HttpResults;

namespace Supermarket.Api.Problems;

/// <summary>The problem+json answers the API gives for bad input and unavailable dependencies.</summary>
public static class ClientErrors
{
    /// <summary>400 naming the field; <c>message</c> repeats the reason in the course API's ResponseMsg shape.</summary>
    public static ProblemHttpResult Invalid(InputError error) =>
        TypedResults.Problem(new HttpValidationProblemDetails(new Dictionary<string, string[]> { [error.Field] = [error.Reason] })
        {
            Status = StatusCodes.Status400BadRequest,
            Detail = $"{error.Field}: {error.Reason}",
            Title = "The request is invalid.",
            Extensions = { ["message"] = $"{error.Field}: {error.Reason}" },
        });

    public static ProblemHttpResult TooLarge(int limitBytes) =>
        TypedResults.Problem(
            detail: $"The body is larger than {limitBytes} bytes.",
            statusCode: StatusCodes.Status413PayloadTooLarge,
            title: "The request body is too large.");

    /// <summary>503 with Retry-After. When a publish timed out the broker may still deliver the purchase, so the
    /// answer cannot promise that nothing was recorded; a retry with the same Idempotency-Key is always safe.</summary>
    public static ProblemHttpResult PurchaseUnconfirmed(HttpContext http, TimeSpan retryAfter) =>
        Unavailable(http, "The message broker is unavailable; the purchase is not confirmed. Retry later with the same Idempotency-Key.", retryAfter);

    /// <summary>422, as the IETF Idempotency-Key draft says: the key already stands for a different request, and
    /// nothing of this one is recorded.</summary>
    public static ProblemHttpResult KeyReused(string header) =>
        TypedResults.Problem(
            detail: $"This {header} was first used for a different purchase (another customer, date or lines); nothing was recorded. Use a new key for a new purchase.",
            statusCode: StatusCodes.Status422UnprocessableEntity,
            title: $"The {header} is already used for another request.",
            extensions: new Dictionary<string, object?> { ["message"] = $"{header} reused for a different purchase." });

    /// <summary>503 with Retry-After when the writer could not be asked about a key: nothing was recorded.</summary>
    public static ProblemHttpResult KeyUnchecked(HttpContext http, TimeSpan retryAfter) =>
        Unavailable(http, "The Purchases service cannot check the Idempotency-Key now; nothing was recorded. Retry later with the same key.", retryAfter);

    public static ProblemHttpResult WorkerUnavailable(HttpContext http, string worker) =>
        Unavailable(http, $"The {worker} cannot be asked now. Retry later.", TimeSpan.FromSeconds(2));

    /// <summary>503 with Retry-After: the answer would miss the parts of the matrix these shards count, and a shard's
    /// replica or restart is usually seconds away.</summary>
    public static ProblemHttpResult ShardsUnavailable(HttpContext http, string worker, IReadOnlyList<string> shards) =>
        Unavailable(http, $"The {worker}'s shards of items {string.Join(", ", shards)} did not answer in time; an answer without them would be incomplete. Retry later.",
            TimeSpan.FromSeconds(2));

    private static ProblemHttpResult Unavailable(HttpContext http, string detail, TimeSpan retryAfter)
    {
        http.Response.Headers.RetryAfter = ((int)Math.Ceiling(retryAfter.TotalSeconds)).ToString(System.Globalization.CultureInfo.InvariantCulture);
        return TypedResults.Problem(detail: detail, statusCode: StatusCodes.Status503ServiceUnavailable, title: "Service unavailable.");
    }
}
