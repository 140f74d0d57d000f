using Supermarket.Database.Schema;
using Supermarket.PurchasesWriter;
using Supermarket.ServiceDefaults;

// The Purchases writer (the seed reports' "Purchases" microservice): every purchase from its queue into MySQL,
// batched and exactly once. Serves /health/live, /health/ready and /metrics. With `migrate` as its first argument it is
// instead the step that brings the schema it owns up to date, run before the writers with the schema owner's account.
var builder = WebApplication.CreateSlimBuilder(args);
if (args is [SchemaMigration.Command, ..])
{
    await builder.MigrateSchemaAsync();
    return;
}

builder.AddServiceDefaults();
builder.AddPurchaseRecording();
var app = builder.Build();
app.MapDefaultEndpoints();
await app.RunAsync();
