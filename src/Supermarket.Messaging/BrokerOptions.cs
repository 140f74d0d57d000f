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

    [Required]
    public string VirtualHost { get; set; } = "/";

    [Required]
    public string Username { get; set; } = "supermarket";

    [Required]
    public string Password { get; set; } = "supermarket-local";

    /// <summary>Persistent messages survive a broker restart; transient ones are faster and do not.
    /// The seeds' main experiment, so both stay available.</summary>
    public bool PersistentDelivery { get; set; } = true;

    /// <summary>Declare the workers' queues as quorum queues, replicated across a RabbitMQ cluster (the Docker
    /// deployment). Off for the single local node, whose existing classic queues could not change type.</summary>
    public bool QuorumQueues { get; set; }

    /// <summary>The most that may wait in the writer's queue for storage, in megabytes of broker messages (about
    /// 4,000 purchases a megabyte). When it is full the API answers 503 with Retry-After: load is shed at the door
    /// instead of the lag growing without bound. Part of the queue's declaration (<see cref="Topology"/>), which the
    /// API and the writer both make, so both must be given the same value; RabbitMQ refuses to change it on an
    /// existing queue (README, "Limits, set on purpose").</summary>
    [Range(1, 100_000)]
    public int WriterBacklogLimitMegabytes { get; set; } = 64;
}
