using System.Globalization;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Supermarket.Database.LoadTest;
using Supermarket.Faults;
using Supermarket.Messaging;

namespace Supermarket.LoadTest.Chaos;

/// <summary>
/// The chaos scenarios' faults on the AppHost that <c>./run.sh chaos</c> started, through <see cref="SystemFaults"/>,
/// the type the integration tests inject theirs with. Each fault goes to one of the AppHost's resources: stopped and
/// started, killed, paused; what inject learns for repair and for the probe (the node it hit, the queues consumed
/// before, the rows stored at the repair) is kept here between the calls.
/// </summary>
public sealed partial class LocalFaults(SystemFaults faults, PreviousWriter previousWriter, Uri api, TextWriter log, AspireCli appHost) : IFaults
{
    /// <summary>The replica replica-rebuild restarts without its checkpoint (its sibling answers meanwhile).</summary>
    private const string RebuiltReplica = "sales-aggregator-1-1";

    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(10) };

    private IReadOnlyList<string> _consumedBefore = [];
    private string _node = "";
    private long _rowsAtRepair;
    private Uri? _rebuiltManagement;
    private string _rebuiltCheckpoint = "";

    public async Task PrepareAsync(ChaosScenario scenario, CancellationToken cancellationToken)
    {
        switch (scenario.Name)
        {
            case ChaosScenario.RollingUpgrade:
                await GuardedAsync("build the previous writer", () => previousWriter.BuildAsync(cancellationToken));
                break;
            case ChaosScenario.ReplicaRebuild:
                // Every aggregator whole: questions go to every shard, and the sibling must be ready to answer alone.
                // How long the ledger is sets how long the rebuild takes (fill-history makes it longer).
                foreach (var aggregator in await faults.NamedAsync(Aggregator(), cancellationToken))
                {
                    await faults.Resources.WaitAsync(aggregator, ResourceStatus.Healthy, TimeSpan.FromMinutes(15), cancellationToken);
                }

                Log($"the sales ledger holds {await faults.DatabaseAsync(ChaosStatements.LedgerPurchases, cancellationToken)} purchases");
                break;
        }
    }

    public Task InjectAsync(ChaosScenario scenario, CancellationToken cancellationToken) => GuardedAsync($"inject {scenario.Name}", async () =>
    {
        switch (scenario.Name)
        {
            case ChaosScenario.RabbitMq:
                _consumedBefore = await faults.ConsumedQueuesAsync(cancellationToken);
                await faults.StopAsync("rabbitmq", cancellationToken);
                break;
            case ChaosScenario.LeaderKill or ChaosScenario.FollowerKill:
                _consumedBefore = await faults.ConsumedQueuesAsync(cancellationToken);
                _node = await TargetNodeAsync(scenario, cancellationToken);
                Log($"{scenario.Name}: {_node}");
                await faults.KillAsync(_node, cancellationToken);
                break;
            case ChaosScenario.NodePause:
                _consumedBefore = await faults.ConsumedQueuesAsync(cancellationToken);
                _node = await TargetNodeAsync(scenario, cancellationToken);
                Log($"{scenario.Name}: {_node}");
                await faults.PauseAsync(_node, cancellationToken);
                break;
            case ChaosScenario.Writer:
                await faults.KillAsync("purchases-writer", cancellationToken);
                break;
            case ChaosScenario.Aggregator:
                foreach (var aggregator in await faults.NamedAsync(FirstShard(), cancellationToken))
                {
                    await faults.KillAsync(aggregator, cancellationToken);
                }

                break;
            case ChaosScenario.ShardReplica:
                await faults.KillAsync(RebuiltReplica, cancellationToken);
                break;
            case ChaosScenario.ReplicaRebuild:
                _rebuiltManagement = (await faults.Resources.DescribeAsync(RebuiltReplica, cancellationToken)).Urls["management"];
                var about = JsonNode.Parse(await Http.GetStringAsync(new Uri(_rebuiltManagement, "about"), cancellationToken))!;
                _rebuiltCheckpoint = (string?)about["facts"]?["salesShard"]?["checkpoint"] ?? throw new InvalidOperationException($"{RebuiltReplica}'s /about names no checkpoint");
                await faults.KillAsync(RebuiltReplica, cancellationToken);
                break;
            case ChaosScenario.Rebuild:
                await faults.DatabaseAsync(ChaosStatements.RestoreOfThisInstant, cancellationToken);
                break;
            case ChaosScenario.MariaDb or ChaosScenario.DatabaseOutage:
                await faults.StopAsync("mariadb", cancellationToken);
                break;
            case ChaosScenario.DatabaseStall:
                await faults.PauseAsync("mariadb", cancellationToken);
                break;
            case ChaosScenario.Api:
                await faults.KillAsync("api-1", cancellationToken);
                break;
            case ChaosScenario.RollingUpgrade:
                await previousWriter.StartAsync(cancellationToken);
                break;
            case ChaosScenario.LateRetry:
                break;
            default:
                throw new ArgumentException($"no such local scenario: {scenario.Name}");
        }
    });

    public Task RepairAsync(ChaosScenario scenario, CancellationToken cancellationToken) => GuardedAsync($"repair {scenario.Name}", async () =>
    {
        switch (scenario.Name)
        {
            case ChaosScenario.RabbitMq:
                await faults.StartUntilHealthyAsync("rabbitmq", cancellationToken);
                break;
            case ChaosScenario.LeaderKill or ChaosScenario.FollowerKill:
                await faults.StartUntilHealthyAsync(_node, cancellationToken);
                break;
            case ChaosScenario.NodePause:
                await faults.ResumeAsync(_node, cancellationToken);
                break;
            case ChaosScenario.Writer:
                await faults.StartAsync("purchases-writer", cancellationToken);
                break;
            case ChaosScenario.Aggregator:
                foreach (var aggregator in await faults.NamedAsync(FirstShard(), cancellationToken))
                {
                    await faults.StartAsync(aggregator, cancellationToken);
                }

                break;
            case ChaosScenario.ShardReplica:
                await faults.StartAsync(RebuiltReplica, cancellationToken);
                break;
            case ChaosScenario.ReplicaRebuild:
                await StartWithoutCheckpointAsync(cancellationToken);
                break;
            case ChaosScenario.MariaDb or ChaosScenario.DatabaseOutage:
                // Rows right after the restart: the writer's next retry (up to Writer:RetryMaxInterval away) makes
                // the count grow.
                await faults.StartUntilHealthyAsync("mariadb", cancellationToken);
                _rowsAtRepair = await StoredPurchasesAsync(cancellationToken);
                break;
            case ChaosScenario.DatabaseStall:
                await faults.ResumeAsync("mariadb", cancellationToken);
                _rowsAtRepair = await StoredPurchasesAsync(cancellationToken);
                break;
            case ChaosScenario.Api:
                await faults.StartAsync("api-1", cancellationToken);
                break;
            case ChaosScenario.RollingUpgrade:
                Log($"the previous writer stored {await previousWriter.StopAsync(cancellationToken)} purchases beside today's");
                break;
            case ChaosScenario.Rebuild or ChaosScenario.LateRetry:
                break;
            default:
                throw new ArgumentException($"no such local scenario: {scenario.Name}");
        }
    });

    public async Task<bool> RecoveredAsync(ChaosScenario scenario, CancellationToken cancellationToken)
    {
        try
        {
            return scenario.Name switch
            {
                // The API answers, and every worker consumes again (a reconnected worker may not: docs/reliability.md).
                ChaosScenario.RabbitMq => await AllHealthyAsync(Api(), cancellationToken) && await faults.ConsumedAgainAsync(_consumedBefore, cancellationToken),
                // The node is back in the cluster, every queue has all its members again, and every worker consumes.
                ChaosScenario.LeaderKill or ChaosScenario.FollowerKill or ChaosScenario.NodePause => await faults.ClusterWholeAsync(cancellationToken)
                    && await AllHealthyAsync(Api(), cancellationToken) && await faults.ConsumedAgainAsync(_consumedBefore, cancellationToken),
                ChaosScenario.Writer or ChaosScenario.RollingUpgrade => await AllHealthyAsync(Writer(), cancellationToken),
                ChaosScenario.Aggregator or ChaosScenario.Rebuild => (await Http.GetAsync(new Uri(api, "items/store/1"), cancellationToken)).IsSuccessStatusCode,
                ChaosScenario.ShardReplica => (await faults.Resources.DescribeAsync(RebuiltReplica, cancellationToken)).Healthy,
                ChaosScenario.ReplicaRebuild => await RebuiltAndReadyAsync(cancellationToken),
                ChaosScenario.MariaDb or ChaosScenario.DatabaseOutage or ChaosScenario.DatabaseStall => await StoredPurchasesAsync(cancellationToken) > _rowsAtRepair,
                ChaosScenario.Api => (await faults.Resources.DescribeAsync("api-1", cancellationToken)).Healthy,
                ChaosScenario.LateRetry => true,
                _ => throw new ArgumentException($"no such local scenario: {scenario.Name}"),
            };
        }
        catch (Exception exception) when (exception is InvalidOperationException or HttpRequestException or TimeoutException
            or TaskCanceledException && !cancellationToken.IsCancellationRequested)
        {
            // Not working yet: the part, or what reports on it, does not answer.
            Log($"{scenario.Name} not recovered yet: {exception.Message}");
            return false;
        }
    }

    public Task<string> SystemLogsAsync(CancellationToken cancellationToken) => appHost.LogsAsync(cancellationToken);

    /// <summary>The cluster's node a scenario hits: the one leading the writer's queue, or the next one (a follower).</summary>
    private async Task<string> TargetNodeAsync(ChaosScenario scenario, CancellationToken cancellationToken)
    {
        var leader = await faults.LeaderOfAsync(Topology.PurchasesWriterQueue, cancellationToken);
        if (scenario.Name != ChaosScenario.FollowerKill)
        {
            return leader;
        }

        var nodes = await faults.BrokerNodesAsync(cancellationToken);
        return nodes[(nodes.ToList().IndexOf(leader) + 1) % nodes.Count];
    }

    /// <summary>The shard's replicas share one checkpoint file (the AppHost gives them one folder), so removing it is
    /// removing the sibling's too: harmless while the sibling runs (it reads it only at its start), and it saves it
    /// again within Aggregator:CheckpointInterval. That save may come between the removal and the restart's read of
    /// the file, so it is removed again until the replica listens, and the probe checks that the start read the whole
    /// ledger.</summary>
    private async Task StartWithoutCheckpointAsync(CancellationToken cancellationToken)
    {
        var live = new Uri(_rebuiltManagement!, "health/live");
        File.Delete(_rebuiltCheckpoint);
        await faults.StartAsync(RebuiltReplica, cancellationToken);
        using var patience = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        patience.CancelAfter(TimeSpan.FromMinutes(2));
        while (!await ListensAsync(live, patience.Token))
        {
            File.Delete(_rebuiltCheckpoint);
            await Task.Delay(100, patience.Token);
        }

        Log($"{RebuiltReplica} started without the checkpoint {_rebuiltCheckpoint}");
    }

    private static async Task<bool> ListensAsync(Uri address, CancellationToken cancellationToken)
    {
        try
        {
            using var _ = await Http.GetAsync(address, cancellationToken);
            return true;
        }
        catch (HttpRequestException)
        {
            return false;
        }
    }

    /// <summary>Ready (its /health/ready, which Aspire's health status follows only at its next poll), and started from
    /// the whole ledger: a start from a checkpoint saved meanwhile rebuilt nothing and tested nothing, and never passes.</summary>
    private async Task<bool> RebuiltAndReadyAsync(CancellationToken cancellationToken)
    {
        using var ready = await Http.GetAsync(new Uri(_rebuiltManagement!, "health/ready"), cancellationToken);
        if (!ready.IsSuccessStatusCode)
        {
            return false;
        }

        var start = JsonNode.Parse(await ready.Content.ReadAsStringAsync(cancellationToken))?["checks"]?["sales-matrix"]?["data"];
        Log($"{RebuiltReplica} is ready: {start?.ToJsonString()}");
        return (bool?)start?["startedFromCheckpoint"] == false;
    }

    private async Task<long> StoredPurchasesAsync(CancellationToken cancellationToken) =>
        long.Parse(await faults.DatabaseAsync(ChaosStatements.StoredPurchases, cancellationToken) ?? "0", CultureInfo.InvariantCulture);

    private async Task<bool> AllHealthyAsync(Regex names, CancellationToken cancellationToken) =>
        (await faults.Resources.ListAsync(cancellationToken)).Where(r => names.IsMatch(r.Name)).All(r => r.Healthy);

    /// <summary>A fault that could not be injected or repaired fails its scenario (not the run), as the chaos run
    /// expects of <see cref="IFaults"/>; why goes to the faults log.</summary>
    private async Task GuardedAsync(string what, Func<Task> action)
    {
        try
        {
            Log(what);
            await action();
        }
        catch (Exception exception) when (exception is not OperationCanceledException and not ArgumentException)
        {
            Log($"could not {what}: {exception}");
            throw new InvalidOperationException($"could not {what}: {exception.Message}", exception);
        }
    }

    private void Log(string line) => log.WriteLine($"[faults {DateTime.UtcNow:HH:mm:ss}] {line}");

    [GeneratedRegex("^api(-[0-9]+)?$")]
    private static partial Regex Api();

    [GeneratedRegex("^purchases-writer(-[0-9]+)?$")]
    private static partial Regex Writer();

    [GeneratedRegex("^sales-aggregator")]
    private static partial Regex Aggregator();

    /// <summary>The aggregators of the first sales shard: the one aggregator (sales-aggregator), or sales-aggregator-1
    /// or sales-aggregator-1-R when the matrix is split (--aggregator-shards, --aggregator-replicas).</summary>
    [GeneratedRegex("^sales-aggregator(-1(-[0-9]+)?)?$")]
    private static partial Regex FirstShard();
}
