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
    public static WebApplicationBuilder AddApiServices(this WebApplicationBuilder builder)
    {
        // Kestrel binds only its endpoints from "Kestrel" itself: its limits too, so settings and variables set them.
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

    /// <summary>Problem details first, so errors and bare statuses (401 and 403 too) get a problem+json body.</summary>
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

    public static WebApplication MapApiEndpoints(this WebApplication app)
    {
        app.MapPurchases();
        app.MapSalesInsights();
        app.MapPurchaseHistory();
        app.MapLiveSales();
        return app;
    }
}
