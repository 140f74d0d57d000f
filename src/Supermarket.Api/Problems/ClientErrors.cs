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

    /// <summary>503 with Retry-After: the purchase was never published (or the broker refused it), so nothing was
    /// recorded and a retry, keyed or not, records it once.</summary>
    public static ProblemHttpResult PurchaseNotRecorded(HttpContext http, TimeSpan retryAfter) =>
        Unavailable(http, "The message broker is unavailable or busy; nothing was recorded. Retry later.", retryAfter);

    /// <summary>504 with Retry-After: the purchase was published and the broker did not confirm it in time, so it may
    /// yet be recorded. Only a retry with the same Idempotency-Key is sure to record it once.</summary>
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

    /// <summary>503: the sales ledger holds sales stored before its entries carried their day, so no range of days can
    /// be counted exactly yet (docs/operations.md, "Dating old sales"); all-time answers are unaffected.</summary>
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

/// <summary>What was wrong with a request: the field (as the client named it) and why.</summary>
public readonly record struct InputError(string Field, string Reason);
