using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Database;
using Supermarket.Database.History;
using Supermarket.Database.IdempotencyKeys;
using Supermarket.Database.Purchases;
using Supermarket.Database.Schema;
using Supermarket.Messaging;
using Supermarket.PurchasesWriter.History;
using Supermarket.PurchasesWriter.IdempotencyKeys;
using Supermarket.PurchasesWriter.Recording;
using Supermarket.ServiceDefaults;
using Supermarket.ServiceDefaults.Configuration;
using Supermarket.ServiceDefaults.WarmUp;

namespace Supermarket.PurchasesWriter;

public static class PurchaseRecordingSetup
{
    /// <summary>All the writer runs, in a method of its own so the tests host exactly what Program.cs hosts.</summary>
    public static IHostApplicationBuilder AddPurchaseRecording(this IHostApplicationBuilder builder)
    {
        // Hosted services start in registration order: the schema is checked before the bus starts consuming.
        builder.Services.AddValidatedOptions<DatabaseOptions>(builder.Configuration, DatabaseOptions.Section);
        builder.Services.AddHostedService<SchemaIsCurrent>();
        builder.Services.AddValidatedOptions<WriterOptions>(builder.Configuration, WriterOptions.Section)
            .Validate<IOptions<DatabaseOptions>, IOptions<HistoryQueryOptions>>(
                (writer, database, history) => (2 * writer.BatchConcurrency) + history.Value.ConcurrentQueries <= database.Value.MaxConnections,
                "Database:MaxConnections must hold twice Writer:BatchConcurrency plus HistoryQueries:ConcurrentQueries: each batch in flight holds a connection, and so does each idempotency-key claim and each history question.");
        builder.Services.AddValidatedOptions<HistoryQueryOptions>(builder.Configuration, HistoryQueryOptions.Section);
        builder.Services.AddSingleton<DatabaseAvailability>();
        builder.Services.AddHealthChecks().AddCheck<DatabaseAvailability>("database", tags: [ServiceDefaultsExtensions.ReadyTag]);
        builder.Services.AddSingleton<WriterMetrics>();
        builder.Services.AddSingleton<UnstorablePurchases>();
        builder.Services.AddSingleton<IPurchaseStore, PurchaseStore>();
        builder.Services.AddSingleton<PurchaseWriter>();
        builder.Services.AddSingleton<HistoryMetrics>();
        builder.Services.AddSingleton<IPurchaseHistory, PurchaseHistory>();
        builder.Services.AddSingleton<IIdempotencyKeyStore, IdempotencyKeyStore>();
        builder.Services.AddSingleton<IStartupWarmUp, PurchaseStoreWarmUp>();
        builder.Services.AddSupermarketBus(builder.Configuration, Topology.WriterNames, bus =>
        {
            bus.AddConsumer<PurchaseBatchRecordedConsumer, PurchaseBatchRecordedConsumerDefinition>();
            bus.AddConsumer<ClaimIdempotencyKeyConsumer, ClaimIdempotencyKeyConsumerDefinition>();
            bus.AddConsumer<PurchaseHistoryQuestionsConsumer, PurchaseHistoryQuestionsConsumerDefinition>();
        });
        return builder;
    }

    public static async Task MigrateSchemaAsync(this IHostApplicationBuilder builder, CancellationToken cancellationToken = default)
    {
        builder.Services.AddValidatedOptions<DatabaseOptions>(builder.Configuration, DatabaseOptions.Section);
        builder.Services.AddValidatedOptions<WriterOptions>(builder.Configuration, WriterOptions.Section);
        builder.Services.AddSingleton<SchemaMigration>();
        using var services = builder.Services.BuildServiceProvider();
        var writer = services.GetRequiredService<IOptions<WriterOptions>>().Value;
        await services.GetRequiredService<SchemaMigration>().MigrateAsync(writer.DatabaseWait, writer.SchemaLockWait, cancellationToken);
    }
}
