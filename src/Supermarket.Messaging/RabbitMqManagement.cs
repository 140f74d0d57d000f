namespace Supermarket.Messaging;

/// <summary>RabbitMQ's management API, which no service uses: the AppHost runs its first node's on this port, and the
/// load test (queue depths) and the integration tests (their vhost) find it there.</summary>
public static class RabbitMqManagement
{
    /// <summary>RabbitMQ's own default.</summary>
    public const int DefaultPort = 15672;
}
