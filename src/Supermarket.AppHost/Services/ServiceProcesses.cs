using System.Globalization;
using Supermarket.AppHost.Secrets;
using Supermarket.AppHost.Topology;
using Supermarket.Contracts.Sales;
using Supermarket.Messaging;

namespace Supermarket.AppHost.Services;

public static class ServiceProcesses
{
    public static IResourceBuilder<ProjectResource> WithPublicPort(this IResourceBuilder<ProjectResource> project, int port) =>
        project.Listening("http", port, "urls");

    /// <summary>Not Aspire's 1 s: an export from each service every second cost a quiet system CPU.</summary>
    public static readonly TimeSpan DashboardMetricsInterval = TimeSpan.FromSeconds(5);

    /// <summary>The port of /health, /metrics and /about; the dashboard's health is its /health/ready.</summary>
    public static IResourceBuilder<ProjectResource> WithManagementPort(this IResourceBuilder<ProjectResource> project, int port, string setting = "urls") =>
        project.Listening("management", port, setting)
            .WithHttpHealthCheck("/health/ready", endpointName: "management")
            .WithEnvironment("OTEL_METRIC_EXPORT_INTERVAL", ((int)DashboardMetricsInterval.TotalMilliseconds).ToString(CultureInfo.InvariantCulture));

    private static IResourceBuilder<ProjectResource> Listening(this IResourceBuilder<ProjectResource> project, string endpoint, int port, string setting) =>
        project.WithHttpEndpoint(port: port, name: endpoint, isProxied: false)
            .WithArgs($"--{setting}", $"http://127.0.0.1:{port}");

    public static IResourceBuilder<T> WithBroker<T>(this IResourceBuilder<T> project,
        IReadOnlyList<(IResourceBuilder<ExecutableResource> Resource, BrokerNode Node)> nodes, ServiceAccount account)
        where T : IResourceWithEnvironment, IResourceWithWaitSupport
    {
        project.WithEnvironment("Broker__Host", new BrokerOptions().Host)
            .WithEnvironment("Broker__Port", nodes[0].Node.Port.ToString(CultureInfo.InvariantCulture))
            .WithEnvironment("Broker__Username", account.User).WithEnvironment("Broker__Password", account.Password);
        if (nodes.Count > 1)
        {
            project.WithEnvironment("Broker__ClusterNodes", string.Join(',', nodes.Select(node => $"127.0.0.1:{node.Node.Port}")))
                .WithEnvironment("Broker__QuorumQueues", "true");
        }

        return project.WaitForAll(nodes.Select(node => node.Resource));
    }

    /// <summary>The API asks by the shards the aggregators count by, so both are given the one count.</summary>
    public static IResourceBuilder<ProjectResource> WithSalesShards(this IResourceBuilder<ProjectResource> project, SystemTopology topology) =>
        project.WithEnvironment($"{SalesShardOptions.Section}__{nameof(SalesShardOptions.Count)}", topology.AggregatorShards.ToString(CultureInfo.InvariantCulture));

    public static IResourceBuilder<T> WithDatabase<T>(this IResourceBuilder<T> project, ServiceAccount account)
        where T : IResourceWithEnvironment =>
        project.WithEnvironment("Database__ConnectionString", MariaDb.ConnectionString)
            .WithEnvironment("Database__User", account.User).WithEnvironment("Database__Password", account.Password);

    public static IResourceBuilder<T> WaitForAll<T, TOther>(this IResourceBuilder<T> resource, IEnumerable<IResourceBuilder<TOther>> others)
        where T : IResourceWithWaitSupport
        where TOther : class, IResource =>
        others.Aggregate(resource, (waiting, other) => waiting.WaitFor(other));
}
