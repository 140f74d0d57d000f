using Supermarket.Api;
using Supermarket.ServiceDefaults;

// The API: takes purchases to the broker, and relays sales and history questions to the workers.
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
