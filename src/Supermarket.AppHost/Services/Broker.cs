using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.AppHost.Secrets;
using Supermarket.AppHost.Topology;
using Supermarket.Messaging;
using Supermarket.Security;

namespace Supermarket.AppHost.Services;

/// <summary>One RabbitMQ node: where it listens and keeps its state. The single node is rabbit@localhost in
/// .local/rabbitmq; a cluster's nodes are rabbit1..N@localhost in .local/rabbitmq-cluster/nodeN, node N on the broker's
/// AMQP port + N - 1, its management port RabbitMqManagement.DefaultPort + N - 1 and its Erlang distribution port
/// AMQP + 20000 (RabbitMQ's own rule).</summary>
public sealed record BrokerNode(string Resource, string ErlangName, int Port, int ManagementPort, string Folder, string Home);

/// <summary>
/// RabbitMQ from Debian's package as executables of the AppHost (Aspire's RabbitMQ integration runs only its container
/// image, which cannot be pulled here), with Erlang's port mapper (epmd) as one more, so that nothing outlives the
/// AppHost. Its users are this machine's broker accounts, each with the rights scripts/broker-rights/ gives it (shared
/// with docker/ and infra/), in RabbitMQ's definitions file, which every node loads at boot: no user but those.
/// </summary>
public static class Broker
{
    public static IReadOnlyList<(IResourceBuilder<ExecutableResource> Resource, BrokerNode Node)> AddBroker(
        this IDistributedApplicationBuilder builder, SystemTopology topology, LocalAccounts accounts)
    {
        var epmd = builder.AddExecutable("epmd", "epmd", MachineAccounts.StateFolder(""), "-address", "127.0.0.1")
            .OnBeforeResourceStarted((_, _, cancellation) => StopStrayEpmdAsync(cancellation));
        // Every node reads the definitions at its boot; they are written once, by whichever node starts first, and
        // the cluster's cookie with them. Nothing is written while the model is only built (a test, a publish).
        var definitionsPath = MachineAccounts.StateFolder("rabbitmq-definitions.json");
        var first = new BrokerOptions().Port;
        var nodes = topology.BrokerNodes == 1
            ? [new BrokerNode("rabbitmq", "rabbit@localhost", first, RabbitMqManagement.DefaultPort, MachineAccounts.StateFolder("rabbitmq"), MachineAccounts.StateFolder("rabbitmq"))]
            : Enumerable.Range(1, topology.BrokerNodes).Select(n => new BrokerNode($"rabbitmq-{n}", $"rabbit{n}@localhost", first + n - 1,
                RabbitMqManagement.DefaultPort + n - 1, MachineAccounts.StateFolder($"rabbitmq-cluster/node{n}"), MachineAccounts.StateFolder("rabbitmq-cluster"))).ToList();
        var definitions = new Lazy<string>(() =>
        {
            WriteDefinitions(builder, accounts, definitionsPath);
            if (nodes.Count > 1)
            {
                WriteClusterCookie(nodes[0].Home);
            }

            return definitionsPath;
        }, LazyThreadSafetyMode.ExecutionAndPublication);

        return [.. nodes.Select(node =>
        {
            builder.Services.AddHealthChecks().AddAsyncCheck(node.Resource, cancellation => AmqpProbe.AnswersAsync(node.Port, cancellation));
            var resource = builder.AddExecutable(node.Resource, "/usr/lib/rabbitmq/bin/rabbitmq-server", node.Folder)
                .WithEnvironment("HOME", node.Home) // the Erlang cookie lives there; a cluster's nodes share it
                .WithEnvironment("RABBITMQ_NODENAME", node.ErlangName)
                .WithEnvironment("RABBITMQ_CONFIG_FILE", Path.Combine(node.Folder, "rabbitmq.conf"))
                .WithEnvironment("RABBITMQ_ENABLED_PLUGINS_FILE", Path.Combine(node.Folder, "enabled_plugins"))
                .WithEnvironment("RABBITMQ_MNESIA_BASE", Path.Combine(node.Folder, "mnesia"))
                .WithEnvironment("RABBITMQ_LOG_BASE", Path.Combine(node.Folder, "log"))
                .WithEnvironment("RABBITMQ_PID_FILE", Path.Combine(node.Folder, "rabbitmq.pid"))
                .WithEnvironment("RABBITMQ_CONF_ENV_FILE", Path.Combine(node.Folder, "rabbitmq-env.conf"))
                .WithEnvironment("RABBITMQ_DIST_PORT", (node.Port + 20000).ToString(CultureInfo.InvariantCulture))
                .WithEnvironment("ERL_CRASH_DUMP", Path.Combine(node.Folder, "log", "erl_crash.dump"))
                .WithEnvironment("ERL_EPMD_ADDRESS", "127.0.0.1")
                .WithEnvironment("RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS", "-kernel inet_dist_use_interface {127,0,0,1}")
                .WithHttpEndpoint(port: node.ManagementPort, name: "management", isProxied: false)
                .WithHealthCheck(node.Resource)
                .WaitFor(epmd)
                .OnBeforeResourceStarted((_, _, _) =>
                {
                    WriteConfiguration(node, nodes, definitions.Value);
                    return Task.CompletedTask;
                });
            return (resource, node);
        })];
    }

    /// <summary>
    /// An epmd an Erlang program started for itself (as a daemon, when it found none: a node or a rabbitmqctl running
    /// while an AppHost was stopping) outlives that AppHost, and ours would then exit at once, its port taken, leaving
    /// the broker waiting for it (found: `./run.sh up` after a test run never started RabbitMQ). One with no node
    /// registered is nobody's: it is told to go before ours starts. epmd refuses while a live node uses it, so a
    /// broker that does run is never touched.
    /// </summary>
    private static async Task StopStrayEpmdAsync(CancellationToken cancellation)
    {
        using var kill = System.Diagnostics.Process.Start(new System.Diagnostics.ProcessStartInfo("epmd", "-kill")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        }) ?? throw new InvalidOperationException("epmd -kill did not start");
        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(cancellation);
        bounded.CancelAfter(TimeSpan.FromSeconds(10));
        await kill.WaitForExitAsync(bounded.Token);
    }

    private static void WriteConfiguration(BrokerNode node, IReadOnlyList<BrokerNode> cluster, string definitions)
    {
        Directory.CreateDirectory(Path.Combine(node.Folder, "mnesia"));
        Directory.CreateDirectory(Path.Combine(node.Folder, "log"));
        File.WriteAllText(Path.Combine(node.Folder, "rabbitmq-env.conf"), "");
        // The shovel moves set-aside purchases back to the writer (the writer's replay-unstorable command: UnstorablePurchasesReplay).
        File.WriteAllText(Path.Combine(node.Folder, "enabled_plugins"), "[rabbitmq_management,rabbitmq_shovel].\n");
        var config = new StringBuilder($"""
            listeners.tcp.1 = 127.0.0.1:{node.Port}
            management.tcp.ip = 127.0.0.1
            management.tcp.port = {node.ManagementPort}
            # Queue depths once a second (the load test samples them), not every 5 s.
            collect_statistics_interval = 1000
            # To the console, which the dashboard shows.
            log.console = true
            log.console.level = info
            log.file = false
            load_definitions = {definitions}

            """);
        if (cluster.Count > 1)
        {
            // The nodes find each other at their first boot; each keeps its membership in its state afterwards. A
            // dead or paused peer is noticed in about 10 s instead of 60. A node back from a pause finds the others
            // have marked it partitioned; autoheal restarts it into the cluster (pause_minority leaves the mark until
            // someone restarts it by hand, as measured in the node-pause scenario). Quorum queues stay consistent
            // either way.
            config.AppendLine("cluster_formation.peer_discovery_backend = classic_config");
            // All nodes start together; RabbitMQ 3.10 would otherwise wait 5-60 s at random before its first boot's
            // discovery.
            config.AppendLine("cluster_formation.randomized_startup_delay_range.min = 0");
            config.AppendLine("cluster_formation.randomized_startup_delay_range.max = 2");
            foreach (var (peer, index) in cluster.Select((peer, index) => (peer, index)))
            {
                config.AppendLine($"cluster_formation.classic_config.nodes.{index + 1} = {peer.ErlangName}");
            }

            config.AppendLine("cluster_partition_handling = autoheal").AppendLine("net_ticktime = 10");
        }

        File.WriteAllText(Path.Combine(node.Folder, "rabbitmq.conf"), config.ToString());
    }

    /// <summary>The users, the system's vhost and each user's rights in it, as RabbitMQ's definitions: passwords as salted SHA-256 hashes, never in clear. Readable by its owner alone.</summary>
    private static void WriteDefinitions(IDistributedApplicationBuilder builder, LocalAccounts accounts, string path)
    {
        var rights = Path.Combine(builder.AppHostDirectory, "..", "..", "scripts", "broker-rights");
        string[] vhosts = [new BrokerOptions().VirtualHost];
        var users = accounts.All.Where(account => account.Key.StartsWith("broker-", StringComparison.Ordinal)).ToList();
        var definitions = new JsonObject
        {
            ["vhosts"] = new JsonArray([.. vhosts.Select(vhost => new JsonObject { ["name"] = vhost })]),
            ["users"] = new JsonArray([.. users.Select(user => new JsonObject
            {
                ["name"] = user.Value.User,
                ["password_hash"] = PasswordHash(user.Value.Password),
                ["hashing_algorithm"] = "rabbit_password_hashing_sha256",
                ["tags"] = user.Key switch { "broker-admin" => "administrator", "broker-monitor" => "monitoring", _ => "" },
            })]),
            ["permissions"] = new JsonArray([.. users.SelectMany(user => vhosts.Select(vhost =>
            {
                var granted = JsonNode.Parse(File.ReadAllText(Path.Combine(rights, $"{user.Key["broker-".Length..]}.json")))!.AsObject();
                granted["user"] = user.Value.User;
                granted["vhost"] = vhost;
                return granted;
            }))]),
        };
        OwnerOnlyFile.Write(path, definitions.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
    }

    /// <summary>RabbitMQ's rabbit_password_hashing_sha256: base64 of a 4-byte salt and SHA-256 of the salt and the
    /// password.</summary>
    private static string PasswordHash(string password)
    {
        var salt = RandomNumberGenerator.GetBytes(4);
        return Convert.ToBase64String([.. salt, .. SHA256.HashData([.. salt, .. Encoding.UTF8.GetBytes(password)])]);
    }

    private static void WriteClusterCookie(string home)
    {
        var cookie = Path.Combine(home, ".erlang.cookie");
        if (!File.Exists(cookie))
        {
            OwnerOnlyFile.Write(cookie, RandomNumberGenerator.GetString("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 20));
            File.SetUnixFileMode(cookie, UnixFileMode.UserRead); // Erlang refuses a cookie others may read
        }
    }
}
