// The ceiling: the course's POST route answering 201 and doing nothing else, on the same Kestrel as the API.
// The load test against it (--url http://127.0.0.1:8099 --no-verify) measures what the load generator and HTTP
// alone reach on this machine, so the real pipeline's figure can be read as a fraction of it.
var builder = WebApplication.CreateSlimBuilder(args);
builder.Logging.ClearProviders();
var app = builder.Build();
app.MapPost("/purchase/{storeID}/customer/{custID}/date/{date}", () => Results.StatusCode(StatusCodes.Status201Created));
app.Run(app.Configuration["Urls"] ?? "http://127.0.0.1:8099");
