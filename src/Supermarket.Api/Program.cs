using MassTransit;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Supermarket.Api.Insights;
using Supermarket.Api.OpenApi;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Purchases;
using Supermarket.Contracts.Sales;
using Supermarket.Hosting.Catalog;
using Supermarket.Hosting.Configuration;
using Supermarket.Hosting.Messaging;
using Supermarket.Hosting.Observability;

// The ingest API: validates purchases, publishes them to the fanout, and relays sales questions to the Store aggregator.
var builder = WebApplication.CreateBuilder(args);
// Kestrel reads only its endpoints from the "Kestrel" section by itself (measured: a RequestHeadersTimeout set there
// had no effect); bind its limits too, so appsettings.json and Kestrel__Limits__* variables set them.
builder.Services.Configure<KestrelServerOptions>(builder.Configuration.GetSection("Kestrel"));

builder.Services.AddValidatedOptions<CatalogOptions>(builder.Configuration, CatalogOptions.Section);
builder.Services.AddValidatedOptions<IngestOptions>(builder.Configuration, IngestOptions.Section);
builder.Services.AddValidatedOptions<InsightOptions>(builder.Configuration, InsightOptions.Section);
builder.Services.AddSingleton(TimeProvider.System);
builder.Services.AddSupermarketMetrics(builder.Configuration);
builder.Services.AddSingleton<IngestMetrics>();
builder.Services.AddSingleton<ConfirmedPublisher>();
builder.Services.AddSingleton<PurchaseBatcher>();
builder.Services.AddHostedService(services => services.GetRequiredService<PurchaseBatcher>());
builder.Services.AddSingleton<PurchaseIngest>();
builder.Services.AddScoped<IdempotencyKeyClaims>();
builder.Services.AddSingleton<BrokerConnection>();
builder.Services.AddSupermarketBus(builder.Configuration, bus =>
{
    var queries = new Uri($"queue:{QueueNames.SalesQueries}");
    bus.AddRequestClient<TopItemsForStore>(queries);
    bus.AddRequestClient<TopStoresForItem>(queries);
    bus.AddRequestClient<ClaimIdempotencyKey>(new Uri($"queue:{QueueNames.IdempotencyKeys}"));
},
// A bus that only publishes reports itself healthy with the broker gone (MassTransit issue #2716), and this bus's
// response endpoint starts only with the first sales question. This empty, temporary endpoint makes the bus's health,
// hence /health/ready and BrokerConnection, follow the connection from the start.
(_, rabbit) => rabbit.ReceiveEndpoint(new TemporaryEndpointDefinition("connection"), KebabCaseEndpointNameFormatter.Instance,
    endpoint => endpoint.ConfigureConsumeTopology = false));
builder.Services.AddProblemDetails();
builder.Services.AddHealthChecks();
builder.Services.AddSupermarketSwagger();

var app = builder.Build();

app.UseExceptionHandler();
app.UseStatusCodePages();
app.UseSupermarketSwagger();
app.MapHealthChecks("/health/live", new HealthCheckOptions { Predicate = _ => false });
// MassTransit tags its bus check "ready": ready means connected to the broker. An endpoint that lost its connection
// reports Degraded, which ASP.NET Core would answer with 200.
app.MapHealthChecks("/health/ready", new HealthCheckOptions
{
    Predicate = check => check.Tags.Contains("ready"),
    ResultStatusCodes = { [HealthStatus.Degraded] = StatusCodes.Status503ServiceUnavailable },
});
app.MapGet("/metrics", (PrometheusExporter metrics) => Results.Text(metrics.Scrape(), "text/plain; version=0.0.4; charset=utf-8"))
    .ExcludeFromDescription();
app.MapPurchases();
app.MapSalesInsights();

await app.RunAsync();

/// <summary>The entry point, visible to the integration tests' WebApplicationFactory.</summary>
public partial class Program;
