using System.ComponentModel.DataAnnotations;
using System.Text.Json.Nodes;
using Microsoft.Extensions.Configuration;

namespace Supermarket.AppHost.Topology;

/// <summary>How many of each part run, and on which ports. Section <c>Topology</c>, or the AppHost's options
/// <c>--api-replicas</c>, <c>--writers</c>, <c>--broker-nodes</c>, <c>--aggregator-shards</c> and
/// <c>--aggregator-replicas</c>. The first port of each service is the one its
/// appsettings.json gives (so a project run alone listens where the system would run it); replicas take the next
/// ones.</summary>
public sealed class SystemTopology : IValidatableObject
{
    public const string Section = "Topology";

    /// <summary>0: one API straight on its public port. N: N APIs on the next ports, nginx on the public port.</summary>
    [Range(0, 16)]
    public int ApiReplicas { get; set; }

    /// <summary>Purchases writers competing on one queue.</summary>
    [Range(1, 16)]
    public int Writers { get; set; } = 1;

    /// <summary>1: one RabbitMQ node. 3: a cluster of three, with quorum queues replicated on each (Services/Broker.cs
    /// starts them).</summary>
    [AllowedValues(1, 3)]
    public int BrokerNodes { get; set; } = 1;

    /// <summary>Sales aggregators that each count a range of the items (SalesShards:Count): the sales matrix of a
    /// chain no one process should hold, split.</summary>
    [Range(1, 8)]
    public int AggregatorShards { get; set; } = 1;

    /// <summary>Aggregators of each shard, competing on its questions and each following the ledger, so that a
    /// shard answers while one of them restarts.</summary>
    [Range(1, 4)]
    public int AggregatorReplicas { get; set; } = 1;

    /// <summary>The port a project's appsettings.json gives under <paramref name="key"/> (<c>Urls</c>,
    /// <c>Management:Url</c>).</summary>
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

    /// <summary>Shard by shard, each replica on the next port; one aggregator alone keeps the plain name.</summary>
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

    /// <summary>The aggregators' ports run up to the writers' first.</summary>
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
