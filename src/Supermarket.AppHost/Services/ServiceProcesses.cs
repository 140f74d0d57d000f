using System.Globalization;
using Supermarket.AppHost.Secrets;
using Supermarket.AppHost.Topology;
using Supermarket.Contracts.Sales;
using Supermarket.Messaging;

namespace Supermarket.AppHost.Services;

/// <summary>How the system's own processes are wired: their ports, their accounts, the broker's nodes.</summary>
public static class ServiceProcesses
{
    /// <summary>The port the public API answers on (its <c>Urls</c>).</summary>
    public static IResourceBuilder<ProjectResource> WithPublicPort(this IResourceBuilder<ProjectResource> project, int port) =>
        project.Listening("http", port, "urls");

    /// <summary>How often a service pushes its metrics to the dashboard. Aspire's 1 s is each service's export, and
    /// the dashboard's intake, every second of a quiet system (OpenTelemetry's own default is a minute).</summary>
    public static readonly TimeSpan DashboardMetricsInterval = TimeSpan.FromSeconds(5);

    /// <summary>The port of /health, /metrics and /about (a worker's only one, <c>Urls</c>; the API's
    /// <c>Management:Url</c>). The dashboard's health is its /health/ready, and its metrics come every
    /// <see cref="DashboardMetricsInterval"/>.</summary>
    public static IResourceBuilder<ProjectResource> WithManagementPort(this IResourceBuilder<ProjectResource> project, int port, string setting = "urls") =>
        project.Listening("management", port, setting)
            .WithHttpHealthCheck("/health/ready", endpointName: "management")
            .WithEnvironment("OTEL_METRIC_EXPORT_INTERVAL", ((int)DashboardMetricsInterval.TotalMilliseconds).ToString(CultureInfo.InvariantCulture));

    private static IResourceBuilder<ProjectResource> Listening(this IResourceBuilder<ProjectResource> project, string endpoint, int port, string setting) =>
        project.WithHttpEndpoint(port: port, name: endpoint, isProxied: false)
            .WithArgs($"--{setting}", $"http://127.0.0.1:{port}");

    /// <summary>The broker's first node, every node of a cluster, and this service's own user there; a cluster's
    /// queues are quorum queues replicated on each node.</summary>
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

    /// <summary>How many shards the sales matrix is split into: the aggregators count by it, the API asks by it.</summary>
    public static IResourceBuilder<ProjectResource> WithSalesShards(this IResourceBuilder<ProjectResource> project, SystemTopology topology) =>
        project.WithEnvironment($"{SalesShardOptions.Section}__{nameof(SalesShardOptions.Count)}", topology.AggregatorShards.ToString(CultureInfo.InvariantCulture));

    /// <summary>MariaDB where the AppHost runs it (<see cref="MariaDb.ConnectionString"/>), and this service's own
    /// account there.</summary>
    public static IResourceBuilder<T> WithDatabase<T>(this IResourceBuilder<T> project, ServiceAccount account)
        where T : IResourceWithEnvironment =>
        project.WithEnvironment("Database__ConnectionString", MariaDb.ConnectionString)
            .WithEnvironment("Database__User", account.User).WithEnvironment("Database__Password", account.Password);

    public static IResourceBuilder<T> WaitForAll<T, TOther>(this IResourceBuilder<T> resource, IEnumerable<IResourceBuilder<TOther>> others)
        where T : IResourceWithWaitSupport
        where TOther : class, IResource =>
        others.Aggregate(resource, (waiting, other) => waiting.WaitFor(other));
}
