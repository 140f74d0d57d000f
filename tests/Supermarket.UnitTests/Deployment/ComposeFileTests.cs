extern alias PurchasesWorker;
extern alias StoreWorker;

using System.Reflection;
using System.Text.RegularExpressions;
using PurchasesWorker::Supermarket.Purchases.Recording;
using StoreWorker::Supermarket.Store.Sales;
using Supermarket.Api.Insights;
using Supermarket.Api.Purchases;
using Supermarket.Hosting.Catalog;
using Supermarket.Hosting.Database;
using Supermarket.Hosting.Messaging;
using Supermarket.Hosting.Observability;

namespace Supermarket.UnitTests.Deployment;

/// <summary>docker/compose.yaml cannot be run here (no Docker engine), so check what can drift: every setting it
/// passes is one the code reads, and the services run as many replicas as the deployment promises.</summary>
public sealed partial class ComposeFileTests
{
    private static readonly Dictionary<string, Type> OptionsBySection = new[]
    {
        typeof(BrokerOptions), typeof(DatabaseOptions), typeof(CatalogOptions), typeof(IngestOptions),
        typeof(InsightOptions), typeof(WriterOptions), typeof(AggregatorOptions), typeof(MetricsOptions),
    }.ToDictionary(type => (string)type.GetField("Section")!.GetValue(null)!);

    private static readonly string[] Lines = File.ReadAllLines(Path.Combine(RepositoryRoot(), "docker", "compose.yaml"));

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
    public void Three_APIs_two_writers_and_one_aggregator_run_behind_nginx()
    {
        Assert.Equal(3, Replicas("api"));
        Assert.Equal(2, Replicas("purchases"));
        Assert.Equal(1, Replicas("store"));
        Assert.Contains(Lines, line => line.Trim() == "nginx:");
        Assert.Contains(Lines, line => line.Contains("Broker__QuorumQueues: \"true\"", StringComparison.Ordinal));
        Assert.DoesNotContain(Lines, line => line.Contains("guest", StringComparison.OrdinalIgnoreCase));
    }

    private static int Replicas(string service)
    {
        var start = Array.FindIndex(Lines, line => line == $"  {service}:");
        Assert.True(start >= 0, $"no service {service}");
        var end = Array.FindIndex(Lines, start + 1, line => ServiceHeader().IsMatch(line));
        var block = Lines[start..(end < 0 ? Lines.Length : end)];
        return int.Parse(block.Select(line => Replica().Match(line)).Single(m => m.Success).Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);
    }

    private static string RepositoryRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "Supermarket.sln")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException("Supermarket.sln not found above the test folder.");
    }

    [GeneratedRegex(@"^\s+([A-Z][A-Za-z]+)__([A-Za-z]+):")]
    private static partial Regex SettingKey();

    [GeneratedRegex(@"^  [a-z][a-z0-9-]*:\s*$")]
    private static partial Regex ServiceHeader();

    [GeneratedRegex(@"^\s+replicas:\s*(\d+)")]
    private static partial Regex Replica();
}
