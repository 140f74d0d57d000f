using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace Supermarket.Faults;

/// <summary>
/// The faults a test or a chaos day injects into the system an AppHost runs, and their repairs, written once: a
/// resource stopped and started as the dashboard does it, killed as a crash, paused as a process stalled on its disk;
/// RabbitMQ's publishers blocked as by a memory alarm; a vhost's queues deleted; and what the broker and the database
/// tell an operator about their state (which node leads a queue, which queues are consumed, how much is stored), asked
/// as the operator asks it (rabbitmqctl with the node's Erlang cookie, MariaDB's root over its socket).
/// </summary>
public sealed partial class SystemFaults(IAppHostResources resources)
{
    /// <summary>How long a stopped or killed process may take to be gone.</summary>
    public static readonly TimeSpan DownPatience = TimeSpan.FromMinutes(2);

    /// <summary>How long a started resource may take to be healthy: RabbitMQ rejoining a cluster takes longest.</summary>
    public static readonly TimeSpan UpPatience = TimeSpan.FromMinutes(5);

    /// <summary>The system's database, as its services' settings name it.</summary>
    public static readonly string SystemDatabase = new MySqlConnector.MySqlConnectionStringBuilder(new Database.DatabaseOptions().ConnectionString).Database;

    /// <summary>rabbitmqctl's environment for the first node, once asked (<see cref="RabbitMqCtlAsync"/>).</summary>
    private Dictionary<string, string>? _firstNode;

    public IAppHostResources Resources => resources;

    /// <summary>The resource stopped, as the dashboard's Stop does; returns once it is down.</summary>
    public async Task StopAsync(string resource, CancellationToken cancellationToken)
    {
        await resources.CommandAsync(resource, ResourceCommand.Stop, cancellationToken);
        await resources.WaitAsync(resource, ResourceStatus.Down, DownPatience, cancellationToken);
    }

    /// <summary>A stopped resource started again, as the dashboard's Start does; returns at once: how long it takes to
    /// work again is what a chaos day measures.</summary>
    public Task StartAsync(string resource, CancellationToken cancellationToken) =>
        resources.CommandAsync(resource, ResourceCommand.Start, cancellationToken);

    /// <summary>The same; returns once the resource is healthy.</summary>
    public async Task StartUntilHealthyAsync(string resource, CancellationToken cancellationToken)
    {
        await StartAsync(resource, cancellationToken);
        await resources.WaitAsync(resource, ResourceStatus.Healthy, UpPatience, cancellationToken);
    }

    /// <summary>The process doing the resource's work SIGKILLed, as a crash; returns once the AppHost sees it down.</summary>
    public async Task KillAsync(string resource, CancellationToken cancellationToken)
    {
        ProcessTree.Signal(ProcessTree.Worker(await PidAsync(resource, cancellationToken)), ProcessTree.Kill);
        await resources.WaitAsync(resource, ResourceStatus.Down, DownPatience, cancellationToken);
    }

    /// <summary>The resource's processes stop answering without closing a connection (SIGSTOP), as a process stalled on
    /// its disk, or a node behind a partition, does; <see cref="ResumeAsync"/> lets them go on (SIGCONT).</summary>
    public Task PauseAsync(string resource, CancellationToken cancellationToken) => SignalAllAsync(resource, ProcessTree.Stop, cancellationToken);

    public Task ResumeAsync(string resource, CancellationToken cancellationToken) => SignalAllAsync(resource, ProcessTree.Continue, cancellationToken);

    /// <summary>A memory alarm: RabbitMQ stops reading from publishers (its high watermark at nothing) until
    /// <see cref="UnblockPublishersAsync"/> puts RabbitMQ's default (0.4 of the memory) back.</summary>
    public Task BlockPublishersAsync(CancellationToken cancellationToken) => RabbitMqCtlAsync(["set_vm_memory_high_watermark", "0"], cancellationToken);

    public Task UnblockPublishersAsync(CancellationToken cancellationToken) => RabbitMqCtlAsync(["set_vm_memory_high_watermark", "0.4"], cancellationToken);

    /// <summary>Every queue of the vhost deleted with what it holds, as its operator deletes them: the applications
    /// declare theirs again as they start (after a queue's arguments changed, or for a session that starts from
    /// nothing); returns the names deleted. A queue gone meanwhile (an API's reply queue, as its API stops) is none of
    /// them, and no error.</summary>
    public async Task<IReadOnlyList<string>> DeleteQueuesAsync(string virtualHost, CancellationToken cancellationToken)
    {
        var deleted = new List<string>();
        foreach (var queue in await QueueNamesAsync(virtualHost, cancellationToken))
        {
            try
            {
                await RabbitMqCtlAsync(["delete_queue", "-p", virtualHost, queue], cancellationToken);
                deleted.Add(queue);
            }
            catch (InvalidOperationException)
            {
                if ((await QueueNamesAsync(virtualHost, cancellationToken)).Contains(queue))
                {
                    throw;
                }
            }
        }

        return deleted;
    }

    /// <summary>The RabbitMQ nodes the AppHost runs: the single node <c>rabbitmq</c>, or a cluster's <c>rabbitmq-N</c>.</summary>
    public async Task<IReadOnlyList<string>> BrokerNodesAsync(CancellationToken cancellationToken) =>
        await NamedAsync(BrokerNode(), cancellationToken);

    /// <summary>The broker node (its resource) that leads a quorum queue of the default vhost.</summary>
    public async Task<string> LeaderOfAsync(string queue, CancellationToken cancellationToken)
    {
        var queues = await RabbitMqCtlJsonAsync(["list_queues", "name", "leader"], cancellationToken);
        var leader = queues.FirstOrDefault(q => (string?)q["name"] == queue)?["leader"]?.ToString() ?? "";
        return ClusterNode().Match(leader) is { Success: true } node
            ? $"rabbitmq-{node.Groups[1].Value}"
            : throw new InvalidOperationException($"queue {queue} has no leader in a cluster (its node: {leader})");
    }

    /// <summary>The workers' queues, taken as the durable ones consumed now (before a fault): MassTransit's _error and
    /// _skipped queues, the writer's _unstorable and a queue of another topology the broker keeps (a sales shard of
    /// another shard count) have no consumer; the API's reply queues are temporary.</summary>
    public async Task<IReadOnlyList<string>> ConsumedQueuesAsync(CancellationToken cancellationToken) =>
        [.. (await RabbitMqCtlJsonAsync(["list_queues", "name", "durable", "consumers"], cancellationToken))
            .Where(q => (bool?)q["durable"] == true && (int?)q["consumers"] > 0).Select(q => (string)q["name"]!)];

    /// <summary>Whether each of these queues has a consumer again: a worker that reconnected but does not consume
    /// (docs/reliability.md) has not recovered.</summary>
    public async Task<bool> ConsumedAgainAsync(IReadOnlyCollection<string> queues, CancellationToken cancellationToken)
    {
        var consumed = (await RabbitMqCtlJsonAsync(["list_queues", "name", "consumers"], cancellationToken))
            .Where(q => (int?)q["consumers"] > 0).Select(q => (string)q["name"]!).ToHashSet();
        return queues.All(consumed.Contains);
    }

    /// <summary>Every node of the cluster runs, and every quorum queue of the default vhost has all its members.</summary>
    public async Task<bool> ClusterWholeAsync(CancellationToken cancellationToken)
    {
        var status = JsonNode.Parse(await RabbitMqCtlAsync(["cluster_status", "--formatter", "json"], cancellationToken))!;
        var nodes = status["disk_nodes"]!.AsArray().Count;
        return status["running_nodes"]!.AsArray().Count == nodes
            && (await RabbitMqCtlJsonAsync(["list_queues", "name", "type", "online"], cancellationToken))
                .Where(q => (string?)q["type"] == "quorum").All(q => q["online"]!.AsArray().Count == nodes);
    }

    /// <summary>A statement of the system's database, as MariaDB's root over the server's socket (the operator's
    /// access; the services' accounts may not do what a fault does); returns the first column of the first row.</summary>
    public async Task<string?> DatabaseAsync(string sql, CancellationToken cancellationToken)
    {
        // The server's folder holds the options file it was started with (the AppHost writes it), which names its socket.
        var folder = (await resources.DescribeAsync("mariadb", cancellationToken)).WorkingDirectory
            ?? throw new InvalidOperationException("The AppHost's mariadb has no working directory.");
        var output = await ExternalCommand.OutputAsync("mariadb", [$"--defaults-file={Path.Combine(folder, "my.cnf")}", "-uroot", "-N", "-B", $"--database={SystemDatabase}", "-e", sql], cancellationToken);
        return output.Split('\n', StringSplitOptions.RemoveEmptyEntries).Select(row => row.Split('\t')[0]).FirstOrDefault();
    }

    private async Task SignalAllAsync(string resource, int signal, CancellationToken cancellationToken)
    {
        foreach (var process in ProcessTree.WithDescendants(await PidAsync(resource, cancellationToken)).ToList())
        {
            ProcessTree.Signal(process, signal);
        }
    }

    private async Task<int> PidAsync(string resource, CancellationToken cancellationToken) =>
        (await resources.DescribeAsync(resource, cancellationToken)).Pid ?? throw new InvalidOperationException($"{resource} has no process.");

    /// <summary>The AppHost's resources whose names match, in order (the replicas of a kind).</summary>
    public async Task<IReadOnlyList<string>> NamedAsync(Regex names, CancellationToken cancellationToken) =>
        [.. (await resources.ListAsync(cancellationToken)).Select(r => r.Name).Where(name => names.IsMatch(name)).Order(StringComparer.Ordinal)];

    private async Task<List<string>> QueueNamesAsync(string virtualHost, CancellationToken cancellationToken) =>
        [.. (await RabbitMqCtlJsonAsync(["list_queues", "-p", virtualHost, "name"], cancellationToken)).Select(q => (string)q["name"]!)];

    private async Task<IEnumerable<JsonNode>> RabbitMqCtlJsonAsync(IReadOnlyList<string> command, CancellationToken cancellationToken) =>
        JsonNode.Parse(await RabbitMqCtlAsync([.. command, "--formatter", "json"], cancellationToken))!.AsArray().OfType<JsonNode>();

    /// <summary>rabbitmqctl against the first node, as its own environment (its HOME holds the Erlang cookie), asked of
    /// the AppHost once: it does not change while the node is stopped, killed or started again.</summary>
    private async Task<string> RabbitMqCtlAsync(IReadOnlyList<string> command, CancellationToken cancellationToken)
    {
        if (_firstNode is null)
        {
            var node = await resources.DescribeAsync((await BrokerNodesAsync(cancellationToken))[0], cancellationToken);
            _firstNode = new Dictionary<string, string> { ["HOME"] = node.Environment["HOME"], ["RABBITMQ_NODENAME"] = node.Environment["RABBITMQ_NODENAME"] };
        }

        return await ExternalCommand.OutputAsync("/usr/lib/rabbitmq/bin/rabbitmqctl", ["-q", .. command], cancellationToken, environment: _firstNode);
    }

    [GeneratedRegex("^rabbitmq(-[0-9]+)?$")]
    private static partial Regex BrokerNode();

    [GeneratedRegex("^rabbit([1-9])@")]
    private static partial Regex ClusterNode();
}
