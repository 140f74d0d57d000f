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

public sealed record BrokerNode(string Resource, string ErlangName, int Port, int ManagementPort, string Folder, string Home);

/// <summary>RabbitMQ from Debian's package (docs/operations.md, "What runs where"), epmd a resource of its own so that
/// nothing outlives the AppHost. Its only users are its definitions' (their rights: scripts/broker-rights/).</summary>
public static class Broker
{
    public static IReadOnlyList<(IResourceBuilder<ExecutableResource> Resource, BrokerNode Node)> AddBroker(
        this IDistributedApplicationBuilder builder, SystemTopology topology, LocalAccounts accounts)
    {
        var epmd = builder.AddExecutable("epmd", "epmd", MachineAccounts.StateFolder(""), "-address", "127.0.0.1")
            .OnBeforeResourceStarted((_, _, cancellation) => StopStrayEpmdAsync(cancellation));
        // The definitions and a cluster's cookie: written as the first node starts, never when the model is only built.
        var definitionsPath = MachineAccounts.StateFolder("rabbitmq-definitions.json");
        var first = new BrokerOptions().Port;
        var nodes = topology.BrokerNodes == 1
            ? [new BrokerNode("rabbitmq", "rabbit@localhost", first, BrokerOptions.ManagementPort, MachineAccounts.StateFolder("rabbitmq"), MachineAccounts.StateFolder("rabbitmq"))]
            : Enumerable.Range(1, topology.BrokerNodes).Select(n => new BrokerNode($"rabbitmq-{n}", $"rabbit{n}@localhost", first + n - 1,
                BrokerOptions.ManagementPort + n - 1, MachineAccounts.StateFolder($"rabbitmq-cluster/node{n}"), MachineAccounts.StateFolder("rabbitmq-cluster"))).ToList();
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

    /// <summary>A stray epmd (one an Erlang program started for itself) would keep ours off its port and the broker
    /// waiting. It is told to go: epmd refuses while a live node uses it, so a running broker is untouched.</summary>
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
        // The shovel plugin serves the writer's replay-unstorable command (UnstorablePurchasesReplay).
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
            config.AppendLine("cluster_formation.peer_discovery_backend = classic_config");
            // The nodes start together: no random wait of 5-60 s before the first boot's discovery.
            config.AppendLine("cluster_formation.randomized_startup_delay_range.min = 0");
            config.AppendLine("cluster_formation.randomized_startup_delay_range.max = 2");
            foreach (var (peer, index) in cluster.Select((peer, index) => (peer, index)))
            {
                config.AppendLine($"cluster_formation.classic_config.nodes.{index + 1} = {peer.ErlangName}");
            }

            // A dead or paused peer is noticed in about 10 s, not 60. autoheal restarts a node back from a pause into
            // the cluster, where pause_minority would wait for a hand; quorum queues stay consistent either way.
            config.AppendLine("cluster_partition_handling = autoheal").AppendLine("net_ticktime = 10");
        }

        File.WriteAllText(Path.Combine(node.Folder, "rabbitmq.conf"), config.ToString());
    }

    /// <summary>Passwords as salted SHA-256 hashes, never in clear, in a file its owner alone may read.</summary>
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
