using Supermarket.SalesAggregator;
using Supermarket.ServiceDefaults;

// The Sales aggregator (the seed reports' "Store" microservice): counts the ledger, answers the sales questions.
var builder = WebApplication.CreateSlimBuilder(args);
builder.AddServiceDefaults();
builder.AddSalesAggregation();
var app = builder.Build();
app.MapDefaultEndpoints();
await app.RunAsync();
