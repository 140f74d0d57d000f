using Microsoft.AspNetCore.Server.Kestrel.Core;
using Supermarket.Api.Access;
using Supermarket.Api.Broker;
using Supermarket.Api.History;
using Supermarket.Api.Insights;
using Supermarket.Api.Live;
using Supermarket.Api.OpenApi;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Catalog;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.Api;

public static class ApiSetup
{
    /// <summary>Everything the API's endpoints need, feature by feature, on what they share: Kestrel's limits, who may
    /// do what, the catalog's bounds, the bus, problem details and Swagger.</summary>
    public static WebApplicationBuilder AddApiServices(this WebApplicationBuilder builder)
    {
        // Kestrel reads only its endpoints from the "Kestrel" section by itself (measured: a RequestHeadersTimeout set
        // there had no effect); bind its limits too, so appsettings.json and Kestrel__Limits__* variables set them.
        builder.Services.Configure<KestrelServerOptions>(builder.Configuration.GetSection("Kestrel"));
        builder.AddSupermarketAccess();
        builder.Services.AddValidatedOptions<CatalogOptions>(builder.Configuration, CatalogOptions.Section);
        builder.AddApiBus();
        builder.AddPurchaseIngest();
        builder.AddSalesInsights();
        builder.AddPurchaseHistory();
        builder.AddLiveSales();
        builder.Services.AddProblemDetails();
        builder.Services.AddSupermarketSwagger();
        return builder;
    }

    /// <summary>The middleware every request passes, in its order: problem details for errors and bare statuses, the live
    /// page's files (wwwroot, index.html at /), who may do what, Swagger UI.</summary>
    public static WebApplication UseApiMiddleware(this WebApplication app)
    {
        app.UseExceptionHandler();
        app.UseStatusCodePages();
        app.UseDefaultFiles();
        app.UseStaticFiles();
        app.UseSupermarketAccess();
        app.UseSupermarketSwagger();
        return app;
    }

    /// <summary>Every endpoint of the API: the course's (purchases, sales insights), purchase history and the live page's stream.</summary>
    public static WebApplication MapApiEndpoints(this WebApplication app)
    {
        app.MapPurchases();
        app.MapSalesInsights();
        app.MapPurchaseHistory();
        app.MapLiveSales();
        return app;
    }
}
