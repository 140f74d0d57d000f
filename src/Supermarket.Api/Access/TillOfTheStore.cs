using System.Globalization;
using Supermarket.Security;

namespace Supermarket.Api.Access;

/// <summary>A till records for its own store only (403); a store id not a number gets the endpoint's 400.</summary>
public sealed class TillOfTheStore : IEndpointFilter
{
    public ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        var http = context.HttpContext;
        if (int.TryParse(http.Request.RouteValues["storeID"] as string, NumberStyles.None, CultureInfo.InvariantCulture, out var store)
            && http.User.FindFirst(Claims.Store)?.Value != store.ToString(CultureInfo.InvariantCulture))
        {
            return ValueTask.FromResult<object?>(TypedResults.Problem(
                detail: $"This credential is a till of another store; it may not record purchases for store {store}.",
                statusCode: StatusCodes.Status403Forbidden, title: "Forbidden."));
        }

        return next(context);
    }
}
