using System.Security.Authentication;
using MassTransit;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Purchases;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.Messaging;

public static class BusRegistration
{
    /// <summary><paramref name="confirmPublishes"/> false where every message is a (transient) answer.</summary>
    public static IServiceCollection AddSupermarketBus(
        this IServiceCollection services,
        IConfiguration configuration,
        string service,
        Action<IBusRegistrationConfigurator>? registerConsumers = null,
        Action<IBusRegistrationContext, IRabbitMqBusFactoryConfigurator>? configureBus = null,
        bool confirmPublishes = true)
    {
        services.AddValidatedOptions<BrokerOptions>(configuration, BrokerOptions.Section);
        services.AddOptions<MassTransitHostOptions>().Configure<IOptions<BrokerOptions>>((host, broker) =>
        {
            // MassTransit checks that the consumers' bound is within the bus's; one setting keeps them equal.
            host.ConsumerStopTimeout = broker.Value.ConsumerStopTimeout;
            host.StopTimeout = broker.Value.ConsumerStopTimeout;
        });
        services.AddMassTransit(bus =>
        {
            // Nothing should phone home from a store's data.
            bus.DisableUsageTelemetry();
            registerConsumers?.Invoke(bus);
            bus.AddConfigureEndpointsCallback((context, queue, endpoint) =>
            {
                if (endpoint is IRabbitMqReceiveEndpointConfigurator rabbit)
                {
                    Topology.ShapeWorkerQueue(rabbit, context.GetRequiredService<IOptions<BrokerOptions>>().Value);
                }
            });
            bus.UsingRabbitMq((context, rabbit) =>
            {
                var broker = context.GetRequiredService<IOptions<BrokerOptions>>().Value;
                rabbit.Host(broker.Host, (ushort)broker.Port, broker.VirtualHost, host =>
                {
                    host.Username(broker.Username);
                    host.Password(broker.Password);
                    host.PublisherConfirmation = confirmPublishes;
                    host.Heartbeat(broker.Heartbeat);
                    if (broker.UseTls)
                    {
                        host.UseSsl(tls =>
                        {
                            tls.Protocol = SslProtocols.Tls12 | SslProtocols.Tls13;
                            // Every node of a cluster is reached under the first's name: their certificate names all.
                            tls.ServerName = broker.Host;
                            if (broker.TlsCaFile is { Length: > 0 } ca)
                            {
                                tls.CertificateValidationCallback = TrustedCertificateAuthority.FromPemFile(ca).Validate;
                            }
                        });
                    }

                    if (broker.ClusterNodeList() is { Count: > 0 } nodes)
                    {
                        host.UseCluster(cluster =>
                        {
                            foreach (var node in nodes)
                            {
                                cluster.Node(node);
                            }
                        });
                    }
                });
                rabbit.ConfigureJsonSerializerOptions(json =>
                {
                    json.WriteIndented = false;
                    return json;
                });
                rabbit.OverrideDefaultBusEndpointQueueName(Topology.BusEndpoint(service));
                rabbit.Message<PurchaseBatchRecorded>(message => message.SetEntityName(Topology.PurchaseBatchesExchange));
                configureBus?.Invoke(context, rabbit);
                rabbit.ConfigureEndpoints(context);
            });
        });
        return services;
    }
}
