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
    /// <summary>
    /// MassTransit over RabbitMQ, configured the same way in every process: publisher confirms on (see below), compact JSON, the
    /// purchase fanouts named by <see cref="Topology"/>, each process's consumers on the endpoints their
    /// definitions name, shaped by <see cref="Topology"/>, and its bus endpoint among its <paramref name="service"/>'s
    /// names (<see cref="Topology.BusEndpoint"/>). A process whose every message is an answer (worth nothing after its
    /// asker's deadline, and asked again after a 504) sends without waiting for confirms:
    /// <paramref name="confirmPublishes"/> false.
    /// </summary>
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
            // There is no network beyond the registries here, and nothing should phone home from a store's data.
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
                // MassTransit writes its envelope indented by default: a 100-purchase batch doubles in size, and every
                // byte is parsed, persisted and sent again by the broker (docs/performance.md, "Levers in the code").
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
