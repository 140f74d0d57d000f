using Supermarket.Purchases;

// The Purchases writer: every recorded purchase from its own queue on the fanout, into MySQL, batched.
var builder = Host.CreateApplicationBuilder(args);
builder.AddPurchaseRecording();
await builder.Build().RunAsync();
