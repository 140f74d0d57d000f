using MassTransit;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Purchases;
using Supermarket.Hosting.Configuration;

namespace Supermarket.Hosting.Messaging;

public static class BusRegistration
{
    /// <summary>
    /// MassTransit over RabbitMQ, configured the same way in every process: publisher confirms on, recorded purchases
    /// and batches of them on named fanout exchanges. Each process adds its own consumers and receive endpoints.
    /// </summary>
    public static IServiceCollection AddSupermarketBus(
        this IServiceCollection services,
        IConfiguration configuration,
        Action<IBusRegistrationConfigurator>? registerConsumers = null,
        Action<IBusRegistrationContext, IRabbitMqBusFactoryConfigurator>? configureEndpoints = null)
    {
        services.AddValidatedOptions<BrokerOptions>(configuration, BrokerOptions.Section);
        services.AddMassTransit(bus =>
        {
            // There is no network beyond the registries here, and nothing should phone home from a store's data.
            bus.DisableUsageTelemetry();
            registerConsumers?.Invoke(bus);
            bus.UsingRabbitMq((context, rabbit) =>
            {
                var broker = context.GetRequiredService<IOptions<BrokerOptions>>().Value;
                rabbit.Host(broker.Host, (ushort)broker.Port, broker.VirtualHost, host =>
                {
                    host.Username(broker.Username);
                    host.Password(broker.Password);
                    host.PublisherConfirmation = true;
                });
                // MassTransit writes its envelope indented by default: a 100-purchase batch doubles in size, and every
                // byte is parsed, persisted and sent again by the broker (docs/performance.md, "Levers").
                rabbit.ConfigureJsonSerializerOptions(json =>
                {
                    json.WriteIndented = false;
                    return json;
                });
                rabbit.Message<PurchaseRecorded>(message => message.SetEntityName(broker.PurchasesExchange));
                rabbit.Message<PurchaseBatchRecorded>(message => message.SetEntityName(broker.PurchaseBatchesExchange));
                configureEndpoints?.Invoke(context, rabbit);
            });
        });
        return services;
    }
}
