using Supermarket.AppHost.Secrets;
using Supermarket.AppHost.Services;

namespace Supermarket.AppHost.Topology;

/// <summary>A day of the load test (or its chaos run) as a resource of the AppHost: it starts once the public API is
/// healthy, its console is on the dashboard, and its exit code is the day's verdict (./run.sh waits for it).</summary>
public static class LoadTestDay
{
    /// <summary>What comes before it is the AppHost's own options; what follows, the load test's.</summary>
    public const string Marker = "--day";

    public static (string[] Options, IReadOnlyList<string>? Day) Split(string[] args) =>
        Array.IndexOf(args, Marker) is var marker and >= 0 ? (args[..marker], args[(marker + 1)..]) : (args, null);

    public static IResourceBuilder<ProjectResource> AddLoadTestDay(this IDistributedApplicationBuilder builder, IReadOnlyList<string> day) =>
        builder.AddProject<Projects.Supermarket_LoadTest>("load-test").WithArgs([.. day]);

    /// <summary>The day on this AppHost's system, once its public API is healthy.</summary>
    public static void AddLoadTestDay(this IDistributedApplicationBuilder builder, IReadOnlyList<string> day, IResourceBuilder<IResource> publicApi,
        IReadOnlyList<(IResourceBuilder<ExecutableResource> Resource, BrokerNode Node)> broker, MachineAccounts accounts, SystemTopology topology)
    {
        builder.AddLoadTestDay(day).WaitFor(publicApi);
        if (day is ["chaos", ..])
        {
            builder.AddPreviousWriter(broker, accounts, topology);
        }
    }

    /// <summary>The chaos run's rolling upgrade: the writer of the release before the newest migration, which
    /// scripts/faults.sh builds from git into .local/previous-writer, started beside today's when the scenario comes.
    /// It migrated at its own start, as the schema's owner, as the deployments of its day ran it.</summary>
    private static void AddPreviousWriter(this IDistributedApplicationBuilder builder,
        IReadOnlyList<(IResourceBuilder<ExecutableResource> Resource, BrokerNode Node)> broker, MachineAccounts accounts, SystemTopology topology)
    {
        var output = Path.Combine(MachineAccounts.StateFolder("previous-writer"), "src", "Supermarket.PurchasesWriter", "bin", "Release", "net10.0");
        var port = topology.PreviousWriterPort;
        builder.AddExecutable("previous-writer", Path.Combine(output, "Supermarket.PurchasesWriter"), output, "--urls", $"http://127.0.0.1:{port}")
            .WithHttpEndpoint(port: port, name: "management", isProxied: false)
            .WithBroker(broker, accounts.BrokerWriter)
            .WithDatabaseAccount(accounts.DatabaseOwner)
            .WithExplicitStart();
    }
}
