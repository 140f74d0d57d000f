using System.Reflection;
using System.Text.RegularExpressions;
using Supermarket.Api.Insights;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.Database;
using Supermarket.Messaging;
using Supermarket.PurchasesWriter.Recording;
using Supermarket.SalesAggregator;
using Supermarket.SalesAggregator.Questions;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.Deployment.Tests;

/// <summary>docker/compose.yaml cannot be run here (no Docker engine), so check what can drift: every setting it
/// passes is one the code reads, and the services run as many replicas as the deployment promises.</summary>
public sealed partial class ComposeFileTests
{
    private static readonly Dictionary<string, Type> OptionsBySection = new[]
    {
        typeof(BrokerOptions), typeof(DatabaseOptions), typeof(CatalogOptions), typeof(IngestOptions),
        typeof(InsightOptions), typeof(WriterOptions), typeof(AggregatorOptions), typeof(TelemetryOptions),
        typeof(SalesShardOptions), typeof(Supermarket.Security.AuthOptions), typeof(Supermarket.ServiceDefaults.Management.ManagementOptions),
    }.ToDictionary(type => (string)type.GetField("Section")!.GetValue(null)!);

    private static readonly string[] Lines = ComposeFile.Lines;

    [Fact]
    public void Every_Section__Setting_in_the_compose_file_is_a_setting_the_code_reads()
    {
        var settings = Lines.Select(line => SettingKey().Match(line)).Where(m => m.Success).ToList();

        Assert.True(settings.Count > 10, "expected the compose file to configure the services through environment variables");
        Assert.All(settings, match =>
        {
            var (section, name) = (match.Groups[1].Value, match.Groups[2].Value);
            Assert.True(OptionsBySection.TryGetValue(section, out var type), $"{section}__{name}: no options class reads section {section}");
            Assert.NotNull(type.GetProperty(name, BindingFlags.Public | BindingFlags.Instance));
        });
    }

    [Fact]
    public void Three_APIs_two_writers_and_two_sales_shards_of_two_replicas_each_run_behind_nginx()
    {
        Assert.Equal(3, Replicas("api"));
        Assert.Equal(2, Replicas("purchases-writer"));
        Assert.Contains(Lines, line => line.Trim() == "nginx:");
        Assert.Contains(Lines, line => line.Contains("Broker__QuorumQueues: \"true\"", StringComparison.Ordinal));
        Assert.DoesNotContain(Lines, line => line.Contains("guest", StringComparison.OrdinalIgnoreCase));

        var shards = int.Parse(Setting("SalesShards__Count"), System.Globalization.CultureInfo.InvariantCulture);
        Assert.Equal(2, shards);
        foreach (var shard in Enumerable.Range(1, shards))
        {
            var service = $"sales-aggregator-{shard}";
            Assert.Equal(2, Replicas(service));
            Assert.Contains(Service(service), line => line.Trim() == $"Aggregator__Shard: \"{shard}\"");
            Assert.Contains(Service(service), line => line.Contains("*sales-shards", StringComparison.Ordinal));
        }

        Assert.DoesNotContain(Lines, line => line == $"  sales-aggregator-{shards + 1}:");
        Assert.DoesNotContain(Lines, line => line == "  sales-aggregator:");
        // The API asks the shards: it must split the items as they do.
        Assert.Contains(Service("api"), line => line.Contains("*sales-shards", StringComparison.Ordinal));
    }

    [Fact]
    public void Three_broker_nodes_form_one_cluster_and_every_process_is_given_all_of_them()
    {
        var nodes = new[] { "rabbitmq-1", "rabbitmq-2", "rabbitmq-3" };
        foreach (var node in nodes)
        {
            var block = Service(node);
            Assert.Contains(block, line => line.Trim() == $"hostname: {node}");
            Assert.Contains(block, line => line.Trim() == "<<: *rabbitmq-node");
        }

        var peers = File.ReadAllLines(Path.Combine(ComposeFile.RepositoryRoot(), "docker", "rabbitmq", "rabbitmq.conf"));
        Assert.All(nodes, node => Assert.Contains(peers, line => line.EndsWith($"= rabbit@{node}", StringComparison.Ordinal)));
        var clusterNodes = Lines.Select(line => line.Trim()).Single(line => line.StartsWith("Broker__ClusterNodes:", StringComparison.Ordinal));
        Assert.Equal(nodes.Select(node => $"{node}:5672"), new BrokerOptions { ClusterNodes = clusterNodes.Split(':', 2)[1] }.ClusterNodeList());
    }

    [Theory]
    [InlineData("api")]
    [InlineData("purchases-writer")]
    [InlineData("sales-aggregator-1")]
    [InlineData("sales-aggregator-2")]
    public void Each_application_service_is_restarted_and_checked_on_its_readiness_endpoint(string service)
    {
        var block = Service(service);
        Assert.Contains(block, line => line.Trim() == "restart: unless-stopped");
        // The API's readiness is on its management port (8081), the workers' on their only one.
        Assert.Contains(block, line => line.Trim() == (service == "api" ? "healthcheck: *api-ready" : "healthcheck: *ready"));
        Assert.Contains(Lines, line => line.Contains("GET /health/ready", StringComparison.Ordinal));
    }

    [Fact]
    public void MariaDB_runs_with_the_settings_file_the_AppHosts_server_includes()
    {
        var mount = Service("mariadb").Select(line => line.Trim()).Single(line => line.EndsWith(":/etc/mysql/conf.d/supermarket.cnf:ro", StringComparison.Ordinal));
        var file = Path.GetFullPath(Path.Combine(ComposeFile.RepositoryRoot(), "docker", mount["- ".Length..].Split(':')[0]));

        Assert.Equal(Path.Combine(ComposeFile.RepositoryRoot(), "src", "Supermarket.Database", "mariadb.cnf"), file);
        Assert.Contains(File.ReadAllLines(file), line => line.StartsWith("innodb_buffer_pool_size=", StringComparison.Ordinal));
    }

    private static string Setting(string name) =>
        Lines.Select(line => line.Trim()).Single(line => line.StartsWith($"{name}:", StringComparison.Ordinal)).Split(':', 2)[1].Trim().Trim('"');

    private static int Replicas(string service) =>
        int.Parse(Service(service).Select(line => Replica().Match(line)).Single(m => m.Success).Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>The service's lines, with those of the extension it merges (<c>&lt;&lt;: *sales-aggregator</c>).</summary>
    private static string[] Service(string service)
    {
        var start = Array.FindIndex(Lines, line => line == $"  {service}:");
        Assert.True(start >= 0, $"no service {service}");
        var end = Array.FindIndex(Lines, start + 1, line => ServiceHeader().IsMatch(line));
        var block = Lines[start..(end < 0 ? Lines.Length : end)];
        var merged = block.Select(line => line.Trim()).FirstOrDefault(line => line.StartsWith("<<: *", StringComparison.Ordinal) && !line.Contains('[', StringComparison.Ordinal));
        return merged is null ? block : [.. block, .. Extension(merged["<<: *".Length..])];
    }

    private static string[] Extension(string anchor)
    {
        var start = Array.FindIndex(Lines, line => line.StartsWith("x-", StringComparison.Ordinal) && line.EndsWith($": &{anchor}", StringComparison.Ordinal));
        Assert.True(start >= 0, $"no extension &{anchor}");
        var end = Array.FindIndex(Lines, start + 1, line => line.Length > 0 && !char.IsWhiteSpace(line[0]));
        return Lines[start..(end < 0 ? Lines.Length : end)];
    }

    [GeneratedRegex(@"^\s+([A-Z][A-Za-z]+)__([A-Za-z]+):")]
    private static partial Regex SettingKey();

    [GeneratedRegex(@"^  [a-z][a-z0-9-]*:\s*$")]
    private static partial Regex ServiceHeader();

    [GeneratedRegex(@"^\s+replicas:\s*(\d+)")]
    private static partial Regex Replica();
}
