using System.Globalization;
using Microsoft.Extensions.Options;
using Supermarket.Security;

namespace Supermarket.Api.Access;

/// <summary>With <c>Auth:RequireForCourseApi</c>, a till records purchases for its own store only: a POST for another
/// store is 403. A store id that is not a number is left to the endpoint's own 400.</summary>
public sealed class TillOfTheStore(IOptions<AuthOptions> auth) : IEndpointFilter
{
    private readonly bool _required = auth.Value.RequireForCourseApi;

    public ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        var http = context.HttpContext;
        if (_required
            && int.TryParse(http.Request.RouteValues["storeID"] as string, NumberStyles.None, CultureInfo.InvariantCulture, out var store)
            && http.User.FindFirst(Claims.Store)?.Value != store.ToString(CultureInfo.InvariantCulture))
        {
            return ValueTask.FromResult<object?>(TypedResults.Problem(
                detail: $"This credential is a till of another store; it may not record purchases for store {store}.",
                statusCode: StatusCodes.Status403Forbidden, title: "Forbidden."));
        }

        return next(context);
    }
}
