using System.ComponentModel.DataAnnotations;

namespace Supermarket.Messaging;

public sealed class BrokerOptions
{
    public const string Section = "Broker";

    /// <summary>Where a local node's management API listens (RabbitMQ's default); a cluster's next nodes take the next ports.</summary>
    public const int ManagementPort = 15672;

    [Required]
    public string Host { get; set; } = "127.0.0.1";

    [Range(1, 65535)]
    public int Port { get; set; } = 5672;

    public string ClusterNodes { get; set; } = "";

    public IReadOnlyList<string> ClusterNodeList() =>
        ClusterNodes.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    public bool UseTls { get; set; }

    public string TlsCaFile { get; set; } = "";

    /// <summary>Not RabbitMQ's minute: a silent node is given up after two missed beats, and another tried.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan Heartbeat { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Where MassTransit would wait without end for a stopping consumer's handlers: past it they are cancelled
    /// and the broker delivers their messages again, which is safe, as storage is exactly once.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan ConsumerStopTimeout { get; set; } = TimeSpan.FromSeconds(10);

    [Required]
    public string VirtualHost { get; set; } = "/";

    [Required(ErrorMessage = "Broker:Username is not set: each service has a broker user of its own (Broker__Username).")]
    public string Username { get; set; } = "";

    [Required(ErrorMessage = "Broker:Password is not set (Broker__Password): there is no default password.")]
    public string Password { get; set; } = "";

    public bool PersistentDelivery { get; set; } = true;

    /// <summary>Off for one node: nothing to replicate, and its existing classic queues cannot change type.</summary>
    public bool QuorumQueues { get; set; }
}
