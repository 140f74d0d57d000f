using Supermarket.PurchasesWriter;
using Supermarket.ServiceDefaults;

// The Purchases writer (the seed reports' "Purchases" microservice): every purchase from its queue into MySQL,
// batched and exactly once; it owns the schema. Serves /health/live, /health/ready and /metrics.
var builder = WebApplication.CreateSlimBuilder(args);
builder.AddServiceDefaults();
builder.AddPurchaseRecording();
var app = builder.Build();
app.MapDefaultEndpoints();
await app.RunAsync();
