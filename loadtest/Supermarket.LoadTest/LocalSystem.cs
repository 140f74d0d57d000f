using System.Text.Json.Nodes;
using Supermarket.Database;
using Supermarket.Messaging;

namespace Supermarket.LoadTest;

/// <summary>
/// Where the AppHost runs the system on this machine, the load test's defaults: each service's first port as its own
/// appsettings.json gives it (the AppHost reads the same files, SystemTopology.ConfiguredPort; the build copies them
/// into the load test's <c>system/</c> folder), MySQL where <see cref="DatabaseOptions"/> finds it, and RabbitMQ's
/// management API on its default port. Nothing here is written a second time.
/// </summary>
public static class LocalSystem
{
    public static Uri Api { get; } = Configured("Supermarket.Api", "Urls");

    /// <summary>The management ports of the API, the aggregator and the first writer: whose /about the report quotes.</summary>
    public static IReadOnlyList<Uri> Workers { get; } =
    [
        Configured("Supermarket.Api", "Management:Url"),
        Configured("Supermarket.SalesAggregator", "Urls"),
        Configured("Supermarket.PurchasesWriter", "Urls"),
    ];

    public static string Database { get; } = new DatabaseOptions().ConnectionString;

    public static Uri BrokerManagement { get; } = new($"http://127.0.0.1:{BrokerOptions.ManagementPort}/");

    private static Uri Configured(string service, string key)
    {
        var settings = JsonNode.Parse(File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "system", $"{service}.appsettings.json")))!;
        return new Uri(key.Split(':').Aggregate(settings, (node, part) => node[part]!).GetValue<string>());
    }
}
