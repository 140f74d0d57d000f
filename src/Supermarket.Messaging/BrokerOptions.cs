using System.ComponentModel.DataAnnotations;

namespace Supermarket.Messaging;

/// <summary>Where RabbitMQ is and how purchases travel through it. Section <c>Broker</c>.</summary>
public sealed class BrokerOptions
{
    public const string Section = "Broker";

    [Required]
    public string Host { get; set; } = "127.0.0.1";

    [Range(1, 65535)]
    public int Port { get; set; } = 5672;

    /// <summary>The nodes of a RabbitMQ cluster, comma-separated <c>host:port</c>, tried in order whenever a
    /// connection is made: when the node a process talks to dies, it reconnects to the next one that answers, without
    /// a restart. Empty (the default) for a single node at <see cref="Host"/>:<see cref="Port"/>.</summary>
    public string ClusterNodes { get; set; } = "";

    public IReadOnlyList<string> ClusterNodeList() =>
        ClusterNodes.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    /// <summary>AMQP over TLS (RabbitMQ's port 5671): the broker's certificate must name <see cref="Host"/> and chain
    /// to a trusted root. Off by default: locally the broker is on loopback; the compose deployment turns it on with
    /// certificates made at deploy time (scripts/containers.sh up --tls).</summary>
    public bool UseTls { get; set; }

    /// <summary>With <see cref="UseTls"/>: the one CA (a PEM file) the broker's certificate must chain to, instead of
    /// the system's roots; empty, the system's roots.</summary>
    public string TlsCaFile { get; set; } = "";

    /// <summary>How often the client and the broker prove to each other that the connection lives. A node that stops
    /// answering (paused, or cut off by the network) is given up after two missed beats and the client reconnects to
    /// another; RabbitMQ's own suggestion is a minute.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan Heartbeat { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>How long a consumer waits for the messages it is in the middle of when it stops: when its channel
    /// dies with the broker, or when the process shuts down. Past it their handlers are cancelled and let go (the
    /// broker gives their unacknowledged messages again; storage is exactly once). A handler that honours its
    /// cancellation ends before that (the writer's: MySqlConnector's I/O is asynchronous, and its cancellation holds
    /// the cancelling thread for at most the connection string's CancellationTimeout); this bounds the wait for
    /// anything that does not, where MassTransit would otherwise wait without end.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan ConsumerStopTimeout { get; set; } = TimeSpan.FromSeconds(10);

    [Required]
    public string VirtualHost { get; set; } = "/";

    /// <summary>This service's own broker user, allowed only what the service needs (docs/security.md). No default:
    /// a process without one refuses to start, so no deployment runs on a password someone forgot to set.
    /// the AppHost gives each local process its user from the accounts of this machine.</summary>
    [Required(ErrorMessage = "Broker:Username is not set: each service has a broker user of its own (Broker__Username).")]
    public string Username { get; set; } = "";

    [Required(ErrorMessage = "Broker:Password is not set (Broker__Password): there is no default password.")]
    public string Password { get; set; } = "";

    /// <summary>Persistent messages survive a broker restart; transient ones are faster and do not.
    /// The seeds' main experiment, so both stay available.</summary>
    public bool PersistentDelivery { get; set; } = true;

    /// <summary>Declare the workers' queues as quorum queues, replicated on every node of a RabbitMQ cluster
    /// (<c>--broker-nodes 3</c>, the Docker deployment). Off for a single node, where they would replicate nothing and
    /// its existing classic queues could not change type.</summary>
    public bool QuorumQueues { get; set; }
}
