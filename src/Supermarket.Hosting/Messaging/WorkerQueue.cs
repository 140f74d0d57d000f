using MassTransit;

namespace Supermarket.Hosting.Messaging;

public static class WorkerQueue
{
    /// <summary>The broker-wide settings every worker queue follows; each worker adds its own consumers.</summary>
    public static void ApplyBrokerSettings(this IRabbitMqReceiveEndpointConfigurator endpoint, BrokerOptions broker)
    {
        if (broker.QuorumQueues)
        {
            endpoint.SetQuorumQueue();
        }
    }
}
