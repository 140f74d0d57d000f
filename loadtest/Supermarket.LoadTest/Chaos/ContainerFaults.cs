using System.Globalization;
using System.Text.Json.Nodes;
using Supermarket.Faults;

namespace Supermarket.LoadTest.Chaos;

/// <summary>
/// The chaos scenarios' faults on docker/compose.yaml's deployment under podman (<c>./run.sh chaos --in-containers</c>):
/// a container's process SIGKILLed as a crash, or a service restarted with compose. podman's restart policies and the
/// health checks do the repair; the probe is the health checks passing.
/// </summary>
public sealed class ContainerFaults(string repository, TextWriter log) : IFaults
{
    private string _node = "";

    public Task PrepareAsync(ChaosScenario scenario, CancellationToken cancellationToken) => Task.CompletedTask;

    public async Task InjectAsync(ChaosScenario scenario, CancellationToken cancellationToken)
    {
        try
        {
            switch (scenario.Name)
            {
                case ChaosScenario.BrokerNodeKill:
                    _node = await WriterQueueLeaderAsync(cancellationToken);
                    log.WriteLine($"{scenario.Name}: {_node}");
                    await CrashAsync(_node, cancellationToken);
                    break;
                case ChaosScenario.WriterKill:
                    await CrashAsync("purchases-writer", cancellationToken);
                    break;
                case ChaosScenario.AggregatorRestart:
                    await ComposeRestartAsync("sales-aggregator-1", cancellationToken);
                    break;
                case ChaosScenario.MariaDbRestart:
                    await ComposeRestartAsync("mariadb", cancellationToken);
                    break;
                default:
                    throw new ArgumentException($"no such scenario in containers: {scenario.Name}");
            }
        }
        catch (Exception exception) when (exception is not OperationCanceledException and not ArgumentException and not InvalidOperationException)
        {
            throw new InvalidOperationException($"could not inject {scenario.Name}: {exception.Message}", exception);
        }
    }

    public Task RepairAsync(ChaosScenario scenario, CancellationToken cancellationToken) => Task.CompletedTask;

    public async Task<bool> RecoveredAsync(ChaosScenario scenario, CancellationToken cancellationToken) => scenario.Name switch
    {
        ChaosScenario.BrokerNodeKill => await HealthyAsync(_node, cancellationToken) && await HealthyAsync("rabbitmq-1", cancellationToken)
            && await HealthyAsync("purchases-writer", cancellationToken) && await HealthyAsync("api", cancellationToken),
        ChaosScenario.WriterKill => await HealthyAsync("purchases-writer", cancellationToken),
        // Ready, and started from the checkpoint its volume kept: reading the whole ledger again would show here.
        ChaosScenario.AggregatorRestart => await HealthyAsync("sales-aggregator-1", cancellationToken) && await StartedFromCheckpointAsync(cancellationToken),
        ChaosScenario.MariaDbRestart => await HealthyAsync("mariadb", cancellationToken) && await HealthyAsync("purchases-writer", cancellationToken),
        _ => throw new ArgumentException($"no such scenario in containers: {scenario.Name}"),
    };

    public Task<string> SystemLogsAsync(CancellationToken cancellationToken) =>
        ExternalCommand.OutputAsync(Path.Combine(repository, "scripts", "containers.sh"), ["compose", "logs", "--no-color", "--timestamps"], cancellationToken);

    /// <summary>A service's first replica, as compose names its container.</summary>
    private static string Container(string service) => $"supermarket_{service}_1";

    private static async Task CrashAsync(string service, CancellationToken cancellationToken)
    {
        var pid = (await ExternalCommand.OutputAsync("podman", ["inspect", "--format", "{{.State.Pid}}", Container(service)], cancellationToken)).Trim();
        ProcessTree.Signal(int.Parse(pid, CultureInfo.InvariantCulture), ProcessTree.Kill);
    }

    private Task ComposeRestartAsync(string service, CancellationToken cancellationToken) =>
        ExternalCommand.OutputAsync(Path.Combine(repository, "scripts", "containers.sh"), ["compose", "restart", service], cancellationToken, patience: TimeSpan.FromMinutes(5));

    private static async Task<bool> HealthyAsync(string service, CancellationToken cancellationToken) =>
        (await ExternalCommand.RunAsync("podman", ["healthcheck", "run", Container(service)], cancellationToken)).ExitCode == 0;

    /// <summary>The aggregator's /health/ready, asked from inside its container (its management port is published
    /// nowhere).</summary>
    private static async Task<bool> StartedFromCheckpointAsync(CancellationToken cancellationToken)
    {
        var asked = await ExternalCommand.RunAsync("podman", ["exec", Container("sales-aggregator-1"), "bash", "-c",
            "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /health/ready HTTP/1.0\\r\\n\\r\\n' >&3 && sed '1,/^\\r$/d' <&3"], cancellationToken);
        try
        {
            return asked.ExitCode == 0 && (bool?)JsonNode.Parse(asked.Output)?["checks"]?["sales-matrix"]?["data"]?["startedFromCheckpoint"] == true;
        }
        catch (System.Text.Json.JsonException)
        {
            return false;
        }
    }

    /// <summary>The node leading the writer's queue, as its service name (rabbitmq-N): asked of that one queue's Raft
    /// members, not of every queue (list_queues waits 60 s on any queue that does not answer, as while a redeployed
    /// cluster re-forms), and asked again for up to a minute while the queue has no leader.</summary>
    private static async Task<string> WriterQueueLeaderAsync(CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(1);
        while (true)
        {
            var status = await ExternalCommand.RunAsync("podman", ["exec", Container("rabbitmq-1"), "rabbitmq-queues", "-q", "quorum_status",
                Messaging.Topology.PurchasesWriterQueue, "--formatter", "json"], cancellationToken);
            try
            {
                var leader = status.ExitCode != 0 ? null : JsonNode.Parse(status.Output)?.AsArray().OfType<JsonNode>()
                    .FirstOrDefault(member => (string?)member["Raft State"] == "leader")?["Node Name"]?.ToString();
                if (leader is not null)
                {
                    return leader.StartsWith("rabbit@", StringComparison.Ordinal) ? leader["rabbit@".Length..] : leader;
                }
            }
            catch (System.Text.Json.JsonException)
            {
            }

            if (DateTime.UtcNow >= deadline)
            {
                throw new InvalidOperationException("the writer's queue has had no leader for a minute");
            }

            await Task.Delay(1000, cancellationToken);
        }
    }
}
