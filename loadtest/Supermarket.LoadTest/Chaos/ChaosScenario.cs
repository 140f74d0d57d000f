namespace Supermarket.LoadTest.Chaos;

/// <summary>
/// One fault injected into a day of load (<see cref="LocalFaults"/> or <see cref="ContainerFaults"/> injects, repairs and probes it). Local processes: rabbitmq,
/// writer, aggregator, rebuild, mariadb, db-stall, api, shard-replica, replica-rebuild, rolling-upgrade, late-retry by
/// default, db-outage on request; on a three-node cluster leader-kill, follower-kill and node-pause. In containers:
/// broker-node-kill, writer-kill, aggregator-restart, mariadb-restart.
/// </summary>
/// <param name="EveryQuestionAnswered">Every sales question the day's <see cref="AnswerWatch"/> asks must be answered:
/// the fault leaves a ready replica of each shard, so a 503 or 504 (or no response) is a promise broken, not the
/// fault's expected cost; the other scenarios count unanswered questions without failing on them.</param>
public sealed record ChaosScenario(string Name, string Description, bool InContainers = false, bool NeedsCluster = false,
    bool NeedsApiReplicas = false, bool NeedsShardReplicas = false, bool ByDefault = true, bool EveryQuestionAnswered = false)
{
    // Each scenario's name, as --scenarios takes it and the faults' switches read it.
    public const string RabbitMq = "rabbitmq";
    public const string Writer = "writer";
    public const string Aggregator = "aggregator";
    public const string ShardReplica = "shard-replica";
    public const string ReplicaRebuild = "replica-rebuild";
    public const string Rebuild = "rebuild";
    public const string MariaDb = "mariadb";
    public const string DatabaseStall = "db-stall";
    public const string Api = "api";
    public const string RollingUpgrade = "rolling-upgrade";
    public const string LateRetry = "late-retry";
    public const string DatabaseOutage = "db-outage";
    public const string LeaderKill = "leader-kill";
    public const string FollowerKill = "follower-kill";
    public const string NodePause = "node-pause";
    public const string BrokerNodeKill = "broker-node-kill";
    public const string WriterKill = "writer-kill";
    public const string AggregatorRestart = "aggregator-restart";
    public const string MariaDbRestart = "mariadb-restart";

    public static readonly IReadOnlyList<ChaosScenario> All =
    [
        new(RabbitMq, "RabbitMQ stopped, then started"),
        new(Writer, "the Purchases writer SIGKILLed, then started"),
        new(Aggregator, "the aggregator SIGKILLed mid-day (with --aggregator-shards, every aggregator of the first shard: questions that need it get 503, the rest their answers): it restarts from its checkpoint and applies the backlog stored meanwhile"),
        new(ShardReplica, "one of the first sales shard's aggregators SIGKILLed mid-day, then started: another replica answers meanwhile", NeedsShardReplicas: true),
        new(ReplicaRebuild, "one of the first sales shard's aggregators SIGKILLed mid-day and started again with the shard's checkpoint removed, so it "
            + "rebuilds its matrix from the whole ledger (tens of seconds on a long one: fill-history first) and takes no question until it is whole: "
            + "the other replica answers every question meanwhile, none 503 or 504", NeedsShardReplicas: true, EveryQuestionAnswered: true),
        new(Rebuild, "the database restored from a backup of this instant (the same ledger entries, each stored_at moved): the aggregator rebuilds its matrix from the whole ledger while it is asked questions, and answers none from a half-built one"),
        new(MariaDb, "MariaDB stopped, then started"),
        new(DatabaseStall, "MariaDB SIGSTOPped with transactions between their INSERT and their COMMIT, then SIGCONT"),
        new(Api, "one of the API replicas SIGKILLed, then started", NeedsApiReplicas: true),
        new(RollingUpgrade, "the writer of the release before the newest migration started beside today's (a rolling upgrade across a schema change), both consuming the same queue into the same ledger, then stopped: nothing set aside, lost or counted twice"),
        new(LateRetry, "the day sent once, then all of it again with the same keys, as tills retrying long after: nothing new may be stored or counted"),
        new(DatabaseOutage, "MariaDB down for the whole outage (--database-outage), keyed POSTs answered 503 meanwhile", ByDefault: false),
        new(LeaderKill, "SIGKILL the node that leads the writer's queue, then start it again", NeedsCluster: true),
        new(FollowerKill, "the same for a node that does not lead it", NeedsCluster: true),
        new(NodePause, "SIGSTOP the leader for --fault-for seconds (more than two heartbeats, Broker:Heartbeat), then SIGCONT", NeedsCluster: true),
        new(BrokerNodeKill, "SIGKILL the RabbitMQ node leading the writer's queue", InContainers: true),
        new(WriterKill, "SIGKILL a writer", InContainers: true),
        new(AggregatorRestart, "the first sales shard's containers restarted: they must start from the checkpoint on their volume", InContainers: true),
        new(MariaDbRestart, "its container restarted", InContainers: true),
    ];

    /// <summary>The scenarios to run: those named, or the deployment's defaults (on a cluster, the cluster's own;
    /// shard-replica and replica-rebuild where shards have replicas). Unknown names, and cluster scenarios without a
    /// cluster, are errors; the api, shard-replica and replica-rebuild scenarios without replicas to spare are left out,
    /// with a warning.</summary>
    public static IReadOnlyList<ChaosScenario> Choose(ChaosOptions options, ICollection<string> warnings)
    {
        var cluster = options.BrokerNodes >= 3;
        var chosen = options.Scenarios.Count == 0
            ? [.. All.Where(s => s.ByDefault && s.InContainers == options.InContainers && (options.InContainers || s.NeedsCluster == cluster)
                && (!s.NeedsShardReplicas || options.AggregatorReplicas >= 2))]
            : options.Scenarios.Select(name => All.FirstOrDefault(s => s.Name == name)
                ?? throw new ArgumentException($"no such scenario: {name} (known: {string.Join(", ", All.Select(s => s.Name))})")).ToList();
        if (chosen.FirstOrDefault(s => s.InContainers != options.InContainers) is { } misplaced)
        {
            throw new ArgumentException($"{misplaced.Name} runs {(misplaced.InContainers ? "only with" : "only without")} --in-containers");
        }

        if (chosen.FirstOrDefault(s => s.NeedsCluster && !cluster) is { } clustered)
        {
            throw new ArgumentException($"{clustered.Name} needs --broker-nodes 3");
        }

        if (options.ApiReplicas < 2 && chosen.Any(s => s.NeedsApiReplicas))
        {
            warnings.Add("the api scenario needs --api-replicas 2 or more; skipping it");
            chosen.RemoveAll(s => s.NeedsApiReplicas);
        }

        if (options.AggregatorReplicas < 2 && chosen.Where(s => s.NeedsShardReplicas).Select(s => s.Name).ToList() is { Count: > 0 } replicated)
        {
            warnings.Add($"{string.Join(" and ", replicated)} {(replicated.Count == 1 ? "needs" : "need")} --aggregator-replicas 2 or more; skipping {(replicated.Count == 1 ? "it" : "them")}");
            chosen.RemoveAll(s => s.NeedsShardReplicas);
        }

        return chosen;
    }

    /// <summary>How long the part stays down.</summary>
    public TimeSpan FaultFor(ChaosOptions options) => Name == DatabaseOutage ? options.DatabaseOutage : options.FaultFor;

    /// <summary>
    /// The day's load test options: keyed retries, ten items (so the whole matrix is compared with MySQL), every
    /// store checked. Nothing is stored while the database is out, and a keyed POST needs the writer's claim for its
    /// 201: in a db-outage the tills retry, and the verification waits without progress, for longer than the outage.
    /// The days are dated 2019, one a scenario, long before the run: keyed purchases' ids begin with their date, so
    /// every one is back-dated, as a till's late upload is. late-retry's run id is fixed, so its second pass sends
    /// the same purchases with the same keys.
    /// </summary>
    public IReadOnlyList<string> DayArguments(ChaosOptions options, int index)
    {
        var day = new DateOnly(2019, 1, 1).AddDays(index).ToString("yyyyMMdd", System.Globalization.CultureInfo.InvariantCulture);
        var retryFor = Name == DatabaseOutage ? options.DatabaseOutage + TimeSpan.FromSeconds(120) : options.RetryFor;
        List<string> arguments =
        [
            "--stores", Invariant(options.Stores), "--purchases-per-hour", Invariant(options.PurchasesPerHour), "--date", day,
            "--retry-for", Invariant((int)retryFor.TotalSeconds), "--max-item-id", "10", "--check-every-store",
        ];
        if (Name == DatabaseOutage)
        {
            arguments.AddRange(["--verify-timeout", Invariant((int)retryFor.TotalSeconds)]);
        }

        if (Name == LateRetry)
        {
            arguments.AddRange(["--run-id", $"late-retry-{day}"]);
        }

        return arguments;
    }

    private static string Invariant(int value) => value.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
