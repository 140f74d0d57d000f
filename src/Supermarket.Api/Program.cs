using Microsoft.AspNetCore.Server.Kestrel.Core;
using Supermarket.Api.Access;
using Supermarket.Api.History;
using Supermarket.Api.Insights;
using Supermarket.Api.OpenApi;
using Supermarket.Api.Purchases;
using Supermarket.ServiceDefaults;
using Supermarket.ServiceDefaults.Configuration;

// The ingest API: validates purchases, publishes them to the writer's fanout, relays sales questions to the
// Sales aggregator and purchase history questions to the Purchases writer. Swagger UI at /swagger; /health/live, /health/ready and /metrics like every process.
var builder = WebApplication.CreateBuilder(args);
// Kestrel reads only its endpoints from the "Kestrel" section by itself (measured: a RequestHeadersTimeout set there
// had no effect); bind its limits too, so appsettings.json and Kestrel__Limits__* variables set them.
builder.Services.Configure<KestrelServerOptions>(builder.Configuration.GetSection("Kestrel"));
builder.AddServiceDefaults();
builder.AddSupermarketAccess();
builder.AddPurchaseIngest();
builder.AddSalesInsights();
builder.Services.AddValidatedOptions<HistoryQuestionOptions>(builder.Configuration, HistoryQuestionOptions.Section);
builder.Services.AddProblemDetails();
builder.Services.AddSupermarketSwagger();

var app = builder.Build();
app.UseExceptionHandler();
app.UseStatusCodePages();
app.UseSupermarketAccess();
app.UseSupermarketSwagger();
app.MapDefaultEndpoints();
app.MapPurchases();
app.MapSalesInsights();
app.MapPurchaseHistory();
await app.RunAsync();

/// <summary>The entry point, visible to the integration tests' WebApplicationFactory.</summary>
public partial class Program;
