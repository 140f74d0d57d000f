using System.ComponentModel.DataAnnotations;
using System.Text.Json.Nodes;
using Microsoft.Extensions.Configuration;

namespace Supermarket.AppHost.Topology;

/// <summary>How many of each part run (section <c>Topology</c>, or the options in docs/operations.md, "Scale out on
/// one machine"). A service's first port is its appsettings.json's, where it listens when run alone.</summary>
public sealed class SystemTopology : IValidatableObject
{
    public const string Section = "Topology";

    /// <summary>0: one API on the public port. N: N APIs on the next ports, nginx on the public port.</summary>
    [Range(0, 16)]
    public int ApiReplicas { get; set; }

    [Range(1, 16)]
    public int Writers { get; set; } = 1;

    /// <summary>1: one RabbitMQ node. 3: a cluster, the workers' queues quorum queues on every node.</summary>
    [AllowedValues(1, 3)]
    public int BrokerNodes { get; set; } = 1;

    /// <summary>The sales matrix split by item range (SalesShards:Count): one no process should hold alone.</summary>
    [Range(1, 8)]
    public int AggregatorShards { get; set; } = 1;

    /// <summary>Each shard's aggregators compete on its questions, so the shard answers while one restarts.</summary>
    [Range(1, 4)]
    public int AggregatorReplicas { get; set; } = 1;

    public static int ConfiguredPort(IProjectMetadata project, string key)
    {
        var settings = JsonNode.Parse(File.ReadAllText(Path.Combine(Path.GetDirectoryName(project.ProjectPath)!, "appsettings.json")))!;
        var url = key.Split(':').Aggregate(settings, (node, part) => node[part]!).GetValue<string>();
        return new Uri(url).Port;
    }

    public int PublicPort { get; } = ConfiguredPort(new Projects.Supermarket_Api(), "Urls");

    public int AggregatorPort { get; } = ConfiguredPort(new Projects.Supermarket_SalesAggregator(), "Urls");

    private readonly int _apiManagementPort = ConfiguredPort(new Projects.Supermarket_Api(), "Management:Url");
    private readonly int _writerPort = ConfiguredPort(new Projects.Supermarket_PurchasesWriter(), "Urls");

    public IEnumerable<(string Name, int PublicPort, int ManagementPort)> ApiProcesses() => ApiReplicas == 0
        ? [("api", PublicPort, _apiManagementPort)]
        : Enumerable.Range(1, ApiReplicas).Select(n => ($"api-{n}", PublicPort + n, _apiManagementPort + n));

    public IEnumerable<(string Name, int ManagementPort, int Shard)> AggregatorProcesses() =>
        from shard in Enumerable.Range(1, AggregatorShards)
        from replica in Enumerable.Range(1, AggregatorReplicas)
        let index = ((shard - 1) * AggregatorReplicas) + replica - 1
        let name = (AggregatorShards, AggregatorReplicas) switch
        {
            (1, 1) => "sales-aggregator",
            (_, 1) => $"sales-aggregator-{shard}",
            _ => $"sales-aggregator-{shard}-{replica}",
        }
        select (name, AggregatorPort + index, shard);

    public IEnumerable<(string Name, int ManagementPort)> WriterProcesses() =>
        Enumerable.Range(1, Writers).Select(n => (n == 1 ? "purchases-writer" : $"purchases-writer-{n}", _writerPort + n - 1));

    private static readonly Dictionary<string, string> Switches = new()
    {
        ["--api-replicas"] = $"{Section}:{nameof(ApiReplicas)}",
        ["--writers"] = $"{Section}:{nameof(Writers)}",
        ["--broker-nodes"] = $"{Section}:{nameof(BrokerNodes)}",
        ["--aggregator-shards"] = $"{Section}:{nameof(AggregatorShards)}",
        ["--aggregator-replicas"] = $"{Section}:{nameof(AggregatorReplicas)}",
    };

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (AggregatorPort + (AggregatorShards * AggregatorReplicas) > _writerPort)
        {
            yield return new ValidationResult(
                $"{AggregatorShards} aggregator shards × {AggregatorReplicas} replicas need ports {AggregatorPort} to {AggregatorPort + (AggregatorShards * AggregatorReplicas) - 1}, past the writers' {_writerPort}.",
                [nameof(AggregatorShards), nameof(AggregatorReplicas)]);
        }
    }

    public static SystemTopology Bind(IConfigurationManager configuration, string[] args)
    {
        configuration.AddCommandLine(args, Switches);
        var topology = configuration.GetSection(Section).Get<SystemTopology>() ?? new SystemTopology();
        Validator.ValidateObject(topology, new ValidationContext(topology), validateAllProperties: true);
        return topology;
    }
}
