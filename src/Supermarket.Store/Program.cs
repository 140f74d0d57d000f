using Supermarket.Store;

// The Store aggregator: counts every purchase the writer has stored into the sales matrix and answers top-N questions about it.
var builder = Host.CreateApplicationBuilder(args);
builder.AddSalesAggregation();
await builder.Build().RunAsync();
