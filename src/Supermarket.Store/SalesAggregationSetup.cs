using MassTransit;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using Supermarket.Hosting.Catalog;
using Supermarket.Hosting.Configuration;
using Supermarket.Hosting.Database;
using Supermarket.Hosting.Messaging;
using Supermarket.Hosting.Observability;
using Supermarket.Sales;
using Supermarket.Store.Ledger;
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
        builder.Services.AddValidatedOptions<DatabaseOptions>(builder.Configuration, DatabaseOptions.Section);
        builder.Services.AddSingleton(services =>
        {
            var catalog = services.GetRequiredService<IOptions<CatalogOptions>>().Value;
            return new SalesMatrix(catalog.MaxItemId, catalog.MaxStoreId);
        });
        builder.Services.TryAddSingleton(TimeProvider.System);
        builder.Services.AddSupermarketMetrics(builder.Configuration);
        builder.Services.AddSingleton<SalesMetrics>();
        builder.Services.AddSingleton<MatrixReadiness>();
        builder.Services.AddSingleton<SalesLedgerReader>();
        builder.Services.AddSingleton<SalesCheckpoint>();
        builder.Services.AddHostedService<SalesLedgerFeed>();
        builder.Services.AddSupermarketBus(
            builder.Configuration,
            bus => bus.AddConsumer<SalesQueries>(),
            (context, rabbit) =>
            {
                var broker = context.GetRequiredService<IOptions<BrokerOptions>>().Value;
                rabbit.ReceiveEndpoint(QueueNames.SalesQueries, endpoint =>
                {
                    endpoint.ApplyBrokerSettings(broker);
                    // MassTransit gives each request a time-to-live equal to its timeout, so questions left here
                    // while the aggregator is down expire instead of being answered to nobody.
                    endpoint.ConfigureConsumer<SalesQueries>(context);
                });
            });
        return builder;
    }
}
