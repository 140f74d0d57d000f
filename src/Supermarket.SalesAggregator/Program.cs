using Supermarket.SalesAggregator;
using Supermarket.ServiceDefaults;

// The Sales aggregator: counts the sales ledger into the matrix and answers the sales questions from it.
var builder = WebApplication.CreateSlimBuilder(args);
builder.AddServiceDefaults();
builder.AddSalesAggregation();
var app = builder.Build();
app.MapDefaultEndpoints();
await app.RunAsync();
