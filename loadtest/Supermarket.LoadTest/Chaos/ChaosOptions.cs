namespace Supermarket.LoadTest.Chaos;

/// <summary>The chaos run's options; read from the command line (<see cref="ChaosCommandLine"/>), whose defaults are
/// these.</summary>
public sealed record ChaosOptions
{
    public int Stores { get; init; } = 64;

    /// <summary>Per store and hour; a day is <see cref="LoadOptions.Hours"/> hours.</summary>
    public int PurchasesPerHour { get; init; } = 300;

    /// <summary>Load before the fault.</summary>
    public TimeSpan FaultAfter { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>How long the part stays down before its repair (local processes; in containers podman repairs).</summary>
    public TimeSpan FaultFor { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>db-outage's time down, whatever <see cref="FaultFor"/> says: longer than any retry window the writer
    /// once had.</summary>
    public TimeSpan DatabaseOutage { get; init; } = TimeSpan.FromSeconds(360);

    /// <summary>How long a store retries a purchase (LoadOptions.RetryFor); db-outage adds its outage.</summary>
    public TimeSpan RetryFor { get; init; } = TimeSpan.FromSeconds(180);

    /// <summary>Past this after the repair, the scenario counts as not recovered (and the day runs on).</summary>
    public TimeSpan RecoveryLimit { get; init; } = TimeSpan.FromSeconds(300);

    /// <summary>Empty: every scenario of the deployment and topology (<see cref="ChaosScenario.Choose"/>).</summary>
    public IReadOnlyList<string> Scenarios { get; init; } = [];

    /// <summary>Against docker/compose.yaml's deployment, where the load test runs in its container.</summary>
    public bool InContainers { get; init; }

    public int BrokerNodes { get; init; } = 1;

    /// <summary>API replicas behind nginx; the api scenario needs two.</summary>
    public int ApiReplicas { get; init; } = 2;

    /// <summary>The sales shards running (--aggregator-shards, as the AppHost was given it).</summary>
    public int AggregatorShards { get; init; } = 1;

    /// <summary>Aggregators of each shard; the shard-replica and replica-rebuild scenarios need two.</summary>
    public int AggregatorReplicas { get; init; } = 1;

    /// <summary>The API the local days target (the containers' load test has its own).</summary>
    public Uri Url { get; init; } = new LoadOptions().Url;

    /// <summary>Where each day's reports, the logs and table.md go (.local/chaos/&lt;time&gt;).</summary>
    public string? Output { get; init; }
}
