using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.Database;
using Supermarket.Database.Ledger;
using Supermarket.Messaging;
using Supermarket.SalesAggregator.Ledger;
using Supermarket.SalesAggregator.Questions;
using Supermarket.SalesCounting;
using Supermarket.ServiceDefaults;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.SalesAggregator;

public static class SalesAggregationSetup
{
    /// <summary>Everything the Sales aggregator runs: the matrix, the feed that keeps it equal to the sales ledger
    /// (read with the read-only database user), and the questions' consumer. A method of its own so the integration
    /// tests host exactly what Program.cs hosts.</summary>
    public static IHostApplicationBuilder AddSalesAggregation(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<CatalogOptions>(builder.Configuration, CatalogOptions.Section);
        builder.Services.AddSingleton<IValidateOptions<CatalogOptions>>(_ => new CatalogFitsTheMatrix());
        builder.Services.AddValidatedOptions<AggregatorOptions>(builder.Configuration, AggregatorOptions.Section);
        builder.Services.AddValidatedOptions<DatabaseOptions>(builder.Configuration, DatabaseOptions.Section);
        builder.Services.AddSingleton(services =>
        {
            var catalog = services.GetRequiredService<IOptions<CatalogOptions>>().Value;
            return new SalesMatrix(catalog.MaxItemId, catalog.MaxStoreId);
        });
        builder.Services.AddSingleton<SalesMetrics>();
        builder.Services.AddSingleton<MatrixReadiness>();
        builder.Services.AddHealthChecks().AddCheck<MatrixReadyCheck>("sales-matrix", tags: [ServiceDefaultsExtensions.ReadyTag]);
        builder.Services.AddSingleton<ISalesLedger>(services => new SalesLedgerReader(
            services.GetRequiredService<IOptions<DatabaseOptions>>(), services.GetRequiredService<IOptions<AggregatorOptions>>().Value.LedgerPageSize));
        builder.Services.AddSingleton<SalesCheckpoint>();
        builder.Services.AddHostedService<SalesLedgerFeed>();
        builder.Services.AddSupermarketBus(builder.Configuration, bus => bus.AddConsumer<SalesQuestionsConsumer, SalesQuestionsConsumerDefinition>());
        return builder;
    }
}
