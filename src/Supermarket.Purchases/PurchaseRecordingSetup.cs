using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Hosting.Configuration;
using Supermarket.Hosting.Database;
using Supermarket.Hosting.Messaging;
using Supermarket.Hosting.Observability;
using Supermarket.Purchases.IdempotencyKeys;
using Supermarket.Purchases.Recording;
using Supermarket.Purchases.Storage;

namespace Supermarket.Purchases;

public static class PurchaseRecordingSetup
{
    /// <summary>Everything the Purchases writer runs: schema migration, then the batch consumer and the idempotency-key
    /// claims, each on its own queue.
    /// A method of its own so the integration tests host exactly what Program.cs hosts.</summary>
    public static IHostApplicationBuilder AddPurchaseRecording(this IHostApplicationBuilder builder)
    {
        // Hosted services start in registration order: the schema is in place before the bus starts consuming.
        builder.Services.AddValidatedOptions<DatabaseOptions>(builder.Configuration, DatabaseOptions.Section);
        builder.Services.AddHostedService<SchemaMigration>();
        builder.Services.AddValidatedOptions<WriterOptions>(builder.Configuration, WriterOptions.Section)
            .Validate<IOptions<DatabaseOptions>>(
                (writer, database) => 2 * writer.BatchConcurrency <= database.Value.MaxConnections,
                "Writer:BatchConcurrency must be at most half of Database:MaxConnections: each batch in flight holds a connection, and so does each idempotency-key claim.");
        builder.Services.AddSupermarketMetrics(builder.Configuration);
        builder.Services.AddSingleton<WriterMetrics>();
        builder.Services.AddSingleton<PurchaseWriter>();
        // A worker is started only once its queue is declared and bound to the fanout; before that, purchases
        // published to the fanout would not reach it.
        builder.Services.Configure<MassTransitHostOptions>(host => host.WaitUntilStarted = true);
        builder.Services.AddSupermarketBus(
            builder.Configuration,
            bus =>
            {
                bus.AddConsumer<PurchaseRecordedConsumer>();
                bus.AddConsumer<PurchaseBatchRecordedConsumer>();
                bus.AddConsumer<IdempotencyKeyClaims>();
            },
            (context, rabbit) =>
            {
                var writer = context.GetRequiredService<IOptions<WriterOptions>>().Value;
                var broker = context.GetRequiredService<IOptions<BrokerOptions>>().Value;
                rabbit.ReceiveEndpoint(QueueNames.PurchaseWriter, endpoint =>
                {
                    endpoint.ApplyBrokerSettings(broker);
                    endpoint.SetQueueArgument("x-max-length-bytes", writer.BacklogLimitMegabytes * 1024L * 1024L);
                    endpoint.SetQueueArgument("x-overflow", "reject-publish");
                    // Enough in flight to fill every concurrent batch, and the next ones while those commit.
                    endpoint.PrefetchCount = Math.Max(writer.BatchSize, writer.GroupsPerTransaction) * writer.BatchConcurrency * 2;
                    endpoint.UseMessageRetry(retry => retry.Exponential(
                        writer.RetryLimit, TimeSpan.FromMilliseconds(100), writer.RetryMaxInterval, TimeSpan.FromMilliseconds(200)));
                    // Purchases published one by one are gathered into batches here, and so are the groups the API
                    // published. Either way, at most BatchConcurrency transactions at once.
                    endpoint.ConfigureConsumer<PurchaseRecordedConsumer>(context, consumer => consumer.Options<BatchOptions>(batch => batch
                        .SetMessageLimit(writer.BatchSize)
                        .SetTimeLimit(writer.BatchTimeLimit)
                        .SetConcurrencyLimit(writer.BatchConcurrency)));
                    endpoint.ConfigureConsumer<PurchaseBatchRecordedConsumer>(context, consumer => consumer.Options<BatchOptions>(batch => batch
                        .SetMessageLimit(writer.GroupsPerTransaction)
                        .SetTimeLimit(writer.BatchTimeLimit)
                        .SetConcurrencyLimit(writer.BatchConcurrency)));
                });
                // A queue of its own, so a till's claim never waits behind a backlog of purchases.
                rabbit.ReceiveEndpoint(QueueNames.IdempotencyKeys, endpoint =>
                {
                    endpoint.ApplyBrokerSettings(broker);
                    endpoint.ConcurrentMessageLimit = writer.BatchConcurrency;
                    endpoint.ConfigureConsumer<IdempotencyKeyClaims>(context);
                });
            });
        return builder;
    }
}
