using System.ComponentModel.DataAnnotations;

namespace Supermarket.Hosting.Messaging;

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

    /// <summary>The fanout exchange every recorded purchase is published to.</summary>
    [Required]
    public string PurchasesExchange { get; set; } = "supermarket.purchase-recorded";

    /// <summary>The fanout exchange batches of purchases are published to when the API groups them.</summary>
    [Required]
    public string PurchaseBatchesExchange { get; set; } = "supermarket.purchase-batch-recorded";

    /// <summary>Persistent messages survive a broker restart; transient ones are faster and do not.
    /// The seeds' main experiment, so both stay available.</summary>
    public bool PersistentDelivery { get; set; } = true;

    /// <summary>Declare the workers' queues as quorum queues, replicated across a RabbitMQ cluster (the Docker
    /// deployment). Off for the single local node, whose existing classic queues could not change type.</summary>
    public bool QuorumQueues { get; set; }
}
