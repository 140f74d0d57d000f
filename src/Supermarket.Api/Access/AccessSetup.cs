using System.Globalization;
using System.Threading.RateLimiting;
using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.Extensions.Options;
using Supermarket.Api.History;
using Supermarket.Security;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.Api.Access;

/// <summary>Who may do what, the ASP.NET Core way: JwtBearer reads the credential and one policy per kind of question
/// decides (docs/security.md). History reads are rate-limited per caller.</summary>
public static class AccessSetup
{
    public const string RecordPurchases = "record-purchases";
    public const string AskSales = "ask-sales";
    public const string ReadHistory = "read-history";

    public const string HistoryReads = "history-reads";

    public static WebApplicationBuilder AddSupermarketAccess(this WebApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<AuthOptions>(builder.Configuration, AuthOptions.Section)
            .Validate(auth => !auth.RequireForCourseApi || auth.AcceptsCredentials,
                "Auth:RequireForCourseApi needs Auth:SigningKey or Auth:Authority: without either no credential could be accepted.")
            .Validate(auth => string.IsNullOrEmpty(auth.SigningKey) || LocalCredentials.IsUsableKey(auth.SigningKey), LocalCredentials.UnusableKey);
        builder.Services.AddAuthentication(JwtBearerDefaults.AuthenticationScheme).AddJwtBearer();
        builder.Services.AddOptions<JwtBearerOptions>(JwtBearerDefaults.AuthenticationScheme).Configure<IOptions<AuthOptions>>((bearer, auth) =>
        {
            // Claims keep the names they have in the token (role, store), rather than being mapped to WS-* URIs.
            bearer.MapInboundClaims = false;
            bearer.TokenValidationParameters = LocalCredentials.ValidationParameters(auth.Value);
            if (auth.Value.Authority is { Length: > 0 } authority)
            {
                bearer.Authority = authority;
            }
        });
        builder.Services.AddAuthorizationBuilder()
            .AddPolicy(RecordPurchases, policy => policy.RequireRole(Roles.Till))
            .AddPolicy(AskSales, policy => policy.RequireRole(Roles.Analyst))
            .AddPolicy(ReadHistory, policy => policy.RequireRole(Roles.Analyst));
        builder.Services.AddRateLimiter(limiter =>
        {
            limiter.AddPolicy(HistoryReads, http =>
            {
                var perMinute = http.RequestServices.GetRequiredService<IOptions<HistoryQuestionOptions>>().Value.ReadsPerMinute;
                return RateLimitPartition.GetTokenBucketLimiter(http.User.Identity?.Name ?? "", _ => new TokenBucketRateLimiterOptions
                {
                    TokenLimit = perMinute,
                    TokensPerPeriod = perMinute,
                    ReplenishmentPeriod = TimeSpan.FromMinutes(1),
                    QueueLimit = 0,
                });
            });
            limiter.OnRejected = (rejected, _) =>
            {
                var retryAfter = rejected.Lease.TryGetMetadata(MetadataName.RetryAfter, out var wait) ? wait : TimeSpan.FromMinutes(1);
                rejected.HttpContext.Response.Headers.RetryAfter = ((int)Math.Ceiling(retryAfter.TotalSeconds)).ToString(CultureInfo.InvariantCulture);
                return new ValueTask(TypedResults.Problem(
                    detail: "Too many purchase history reads; retry after the time in Retry-After.",
                    statusCode: StatusCodes.Status429TooManyRequests, title: "Too many requests.").ExecuteAsync(rejected.HttpContext));
            };
        });
        builder.Services.AddSingleton<OwnPortClient>();
        return builder;
    }

    /// <summary>After the status-code pages, so a 401 or 403 gets its problem+json body like any other client error.</summary>
    public static WebApplication UseSupermarketAccess(this WebApplication app)
    {
        app.UseAuthentication();
        app.UseAuthorization();
        app.UseRateLimiter();
        var auth = app.Services.GetRequiredService<IOptions<AuthOptions>>().Value;
        if (!auth.RequireForCourseApi)
        {
            app.Logger.LogWarning("The course's API (POST /purchase, GET /items) is open to anyone who can reach this port " +
                "(Auth:RequireForCourseApi is false); purchase history needs an analyst's credential");
        }

        if (!auth.AcceptsCredentials)
        {
            app.Logger.LogWarning("Neither Auth:SigningKey nor Auth:Authority is set: no credential is accepted, and purchase history answers 401 to everyone");
        }

        return app;
    }

    /// <summary>With Auth:RequireForCourseApi, the policy and <paramref name="guard"/>; otherwise neither, so an open
    /// API runs no authorization check that lets everyone through, on the purchase's hot path.</summary>
    public static RouteGroupBuilder RequireForCourseApi(this RouteGroupBuilder endpoints, string policy, Action<RouteGroupBuilder>? guard = null)
    {
        if (((IEndpointRouteBuilder)endpoints).ServiceProvider.GetRequiredService<IOptions<AuthOptions>>().Value.RequireForCourseApi)
        {
            endpoints.RequireAuthorization(policy);
            guard?.Invoke(endpoints);
        }

        return endpoints;
    }
}
