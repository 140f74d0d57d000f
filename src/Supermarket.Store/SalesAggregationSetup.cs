using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Hosting.Catalog;
using Supermarket.Hosting.Configuration;
using Supermarket.Hosting.Database;
using Supermarket.Hosting.Messaging;
using Supermarket.Hosting.Observability;
using Supermarket.Sales;
using Supermarket.Store.Recovery;
using Supermarket.Store.Sales;

namespace Supermarket.Store;

public static class SalesAggregationSetup
{
    /// <summary>Everything the Store aggregator runs. A method of its own so the integration tests host exactly
    /// what Program.cs hosts.</summary>
    public static IHostApplicationBuilder AddSalesAggregation(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<CatalogOptions>(builder.Configuration, CatalogOptions.Section);
        builder.Services.AddValidatedOptions<AggregatorOptions>(builder.Configuration, AggregatorOptions.Section);
        builder.Services.AddSingleton(services =>
        {
            var catalog = services.GetRequiredService<IOptions<CatalogOptions>>().Value;
            return new SalesMatrix(catalog.MaxItemId, catalog.MaxStoreId);
        });
        builder.Services.AddSupermarketMetrics(builder.Configuration);
        builder.Services.AddSingleton<SalesMetrics>();
        builder.Services.AddSingleton(services =>
            new CountedPurchases(services.GetRequiredService<IOptions<AggregatorOptions>>().Value.RememberedPurchases));

        // Order matters: hosted services start in registration order. The schema exists; the bus starts and binds
        // the queue to the writer's stored-purchases exchange (its consumers wait for the rebuild); then the matrix
        // is rebuilt (see SalesRecovery for why this order loses and doubles nothing).
        builder.Services.AddSupermarketDatabase(builder.Configuration);
        // A worker is started only once its queue is declared and bound; before that, purchases published would
        // not reach it.
        builder.Services.Configure<MassTransitHostOptions>(host => host.WaitUntilStarted = true);
        builder.Services.AddSupermarketBus(
            builder.Configuration,
            bus =>
            {
                bus.AddConsumer<SalesCounter>();
                bus.AddConsumer<SalesQueries>();
            },
            (context, rabbit) =>
            {
                var options = context.GetRequiredService<IOptions<AggregatorOptions>>().Value;
                var broker = context.GetRequiredService<IOptions<BrokerOptions>>().Value;
                rabbit.ReceiveEndpoint(QueueNames.SalesCounter, endpoint =>
                {
                    endpoint.ApplyBrokerSettings(broker);
                    endpoint.PrefetchCount = options.PrefetchCount;
                    endpoint.ConcurrentMessageLimit = options.ConcurrentMessageLimit;
                    endpoint.ConfigureConsumer<SalesCounter>(context);
                });
                rabbit.ReceiveEndpoint(QueueNames.SalesQueries, endpoint =>
                {
                    endpoint.ApplyBrokerSettings(broker);
                    // MassTransit gives each request a time-to-live equal to its timeout, so questions left here
                    // while the aggregator is down expire instead of being answered to nobody.
                    endpoint.ConfigureConsumer<SalesQueries>(context);
                });
            });
        builder.Services.AddHostedService<SalesRecovery>();
        return builder;
    }
}
