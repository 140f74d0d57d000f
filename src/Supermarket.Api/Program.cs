using Supermarket.Api;
using Supermarket.ServiceDefaults;

// The ingest API: validates purchases, publishes them to the writer's fanout, relays sales questions to the
// Sales aggregator and purchase history questions to the Purchases writer. Swagger UI at /swagger; /health/live,
// /health/ready and /metrics like every process.
var builder = WebApplication.CreateBuilder(args);
builder.AddServiceDefaults();
builder.AddApiServices();

var app = builder.Build();
app.UseApiMiddleware();
app.MapDefaultEndpoints();
app.MapApiEndpoints();
await app.RunAsync();

/// <summary>The entry point, visible to the integration tests' WebApplicationFactory.</summary>
public partial class Program;
