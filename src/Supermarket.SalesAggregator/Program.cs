using Supermarket.SalesAggregator;
using Supermarket.ServiceDefaults;

// The Sales aggregator (the seed reports' "Store" microservice): counts every purchase the writer has stored into
// the sales matrix and answers top-N questions from it. Serves /health/live, /health/ready and /metrics.
var builder = WebApplication.CreateSlimBuilder(args);
builder.AddServiceDefaults();
builder.AddSalesAggregation();
var app = builder.Build();
app.MapDefaultEndpoints();
await app.RunAsync();
