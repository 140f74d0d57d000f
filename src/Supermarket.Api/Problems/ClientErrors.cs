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

    /// <summary>503: never published (or refused), so a retry, keyed or not, records it once.</summary>
    public static ProblemHttpResult PurchaseNotRecorded(HttpContext http, TimeSpan retryAfter) =>
        Unavailable(http, "The message broker is unavailable or busy; nothing was recorded. Retry later.", retryAfter);

    /// <summary>504: published, unconfirmed in time; only a retry with the same key surely records it once.</summary>
    public static ProblemHttpResult PurchaseOutcomeUnknown(HttpContext http, TimeSpan retryAfter)
    {
        http.Response.Headers.RetryAfter = Seconds(retryAfter);
        return TypedResults.Problem(
            detail: "The message broker did not confirm the purchase in time: it may or may not be recorded. Send it again with the same " +
                "Idempotency-Key to have it recorded once; sent again without one, it may be recorded twice.",
            statusCode: StatusCodes.Status504GatewayTimeout,
            title: "The outcome is not known.",
            extensions: new Dictionary<string, object?> { ["message"] = "Outcome unknown: the purchase may or may not be recorded." });
    }

    /// <summary>422, as the IETF Idempotency-Key draft says: the key stands for a different request.</summary>
    public static ProblemHttpResult KeyReused(string header) =>
        TypedResults.Problem(
            detail: $"This {header} was first used for a different purchase (another customer, date or lines); nothing was recorded. Use a new key for a new purchase.",
            statusCode: StatusCodes.Status422UnprocessableEntity,
            title: $"The {header} is already used for another request.",
            extensions: new Dictionary<string, object?> { ["message"] = $"{header} reused for a different purchase." });

    public static ProblemHttpResult KeyUnchecked(HttpContext http, TimeSpan retryAfter) =>
        Unavailable(http, "The Purchases service cannot check the Idempotency-Key now; nothing was recorded. Retry later with the same key.", retryAfter);

    public static ProblemHttpResult WorkerUnavailable(HttpContext http, string worker) =>
        Unavailable(http, $"The {worker} cannot be asked now. Retry later.", TimeSpan.FromSeconds(2));

    /// <summary>503, not 504: a shard's replica or restart is usually seconds away.</summary>
    public static ProblemHttpResult ShardsUnavailable(HttpContext http, string worker, IReadOnlyList<string> shards) =>
        Unavailable(http, $"The {worker}'s shards of items {string.Join(", ", shards)} did not answer in time; an answer without them would be incomplete. Retry later.",
            TimeSpan.FromSeconds(2));

    /// <summary>503 until old sales are dated (docs/operations.md, "Dating old sales"); all-time ones go on.</summary>
    public static ProblemHttpResult RangeNotDated(HttpContext http, string reason) =>
        Unavailable(http, reason, TimeSpan.FromMinutes(1), NotDatedTitle);

    /// <summary>The title of <see cref="RangeNotDated"/>'s problem, which a client tells from a passing outage by.</summary>
    public const string NotDatedTitle = "Sales not dated.";

    private static ProblemHttpResult Unavailable(HttpContext http, string detail, TimeSpan retryAfter, string title = "Service unavailable.")
    {
        http.Response.Headers.RetryAfter = Seconds(retryAfter);
        return TypedResults.Problem(detail: detail, statusCode: StatusCodes.Status503ServiceUnavailable, title: title);
    }

    private static string Seconds(TimeSpan time) => ((int)Math.Ceiling(time.TotalSeconds)).ToString(System.Globalization.CultureInfo.InvariantCulture);
}

public readonly record struct InputError(string Field, string Reason);
