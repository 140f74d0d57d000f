using Supermarket.Database.Schema;
using Supermarket.PurchasesWriter;
using Supermarket.ServiceDefaults;

// Every purchase from its queue into MySQL, batched and exactly once. With `migrate` first it is instead the step that
// brings the schema up to date, run before the writers with the schema owner's account.
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
