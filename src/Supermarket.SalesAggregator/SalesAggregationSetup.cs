using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.Database;
using Supermarket.Database.Ledger;
using Supermarket.Messaging;
using Supermarket.SalesAggregator.Checkpoints;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesAggregator.Ledger;
using Supermarket.SalesAggregator.Questions;
using Supermarket.SalesAggregator.Sharding;
using Supermarket.SalesCounting;
using Supermarket.ServiceDefaults;
using Supermarket.ServiceDefaults.About;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.SalesAggregator;

public static class SalesAggregationSetup
{
    /// <summary>A method of its own so the integration tests host exactly what Program.cs hosts.</summary>
    public static IHostApplicationBuilder AddSalesAggregation(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<CatalogOptions>(builder.Configuration, CatalogOptions.Section);
        builder.Services.AddValidatedOptions<SalesShardOptions>(builder.Configuration, SalesShardOptions.Section);
        builder.Services.AddValidatedOptions<AggregatorOptions>(builder.Configuration, AggregatorOptions.Section);
        builder.Services.AddSingleton<IValidateOptions<AggregatorOptions>, ShardFitsInMemory>();
        builder.Services.AddValidatedOptions<DatabaseOptions>(builder.Configuration, DatabaseOptions.Section);
        builder.Services.AddSingleton(services => SalesShard.Of(services.GetRequiredService<IOptions<AggregatorOptions>>().Value,
            services.GetRequiredService<IOptions<SalesShardOptions>>().Value, services.GetRequiredService<IOptions<CatalogOptions>>().Value));
        builder.Services.AddSingleton(services => services.GetRequiredService<SalesShard>().NewMatrix());
        builder.Services.AddSingleton(services => services.GetRequiredService<SalesShard>().NewDays(
            services.GetRequiredService<IOptions<AggregatorOptions>>().Value.DaysKept));
        builder.Services.AddSingleton(services => new AboutFact("salesShard", () => SalesShardFacts(services)));
        builder.Services.AddSingleton<SalesMetrics>();
        builder.Services.AddSingleton<MatrixReadiness>();
        builder.Services.AddSingleton<CountingPace>();
        builder.Services.AddHealthChecks().AddCheck<MatrixReadyCheck>("sales-matrix", tags: [ServiceDefaultsExtensions.ReadyTag]);
        builder.Services.AddSingleton<ISalesLedger>(services => new SalesLedgerReader(
            services.GetRequiredService<IOptions<DatabaseOptions>>(), services.GetRequiredService<IOptions<AggregatorOptions>>().Value.LedgerPageSize));
        builder.Services.AddSingleton<SalesCheckpoint>();
        builder.Services.AddHostedService<SalesLedgerFeed>();
        // The questions' endpoint is not started with the bus: QuestionsWhileReady starts it once the matrix is whole.
        builder.Services.AddSupermarketBus(builder.Configuration, Topology.AggregatorNames,
            bus => bus.AddConsumer<SalesQuestionsConsumer, SalesQuestionsConsumerDefinition>().ExcludeFromConfigureEndpoints(),
            confirmPublishes: false);
        builder.Services.AddHostedService<QuestionsWhileReady>();
        return builder;
    }

    private static object SalesShardFacts(IServiceProvider services)
    {
        var shard = services.GetRequiredService<SalesShard>();
        return new
        {
            shard.Number, shard.Count, Items = shard.Items.ToString(), shard.MatrixBytes, services.GetRequiredService<MatrixReadiness>().CountedThrough,
            Checkpoint = services.GetRequiredService<SalesCheckpoint>().FilePath,
        };
    }
}
