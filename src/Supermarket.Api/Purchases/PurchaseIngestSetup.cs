using MassTransit;
using Supermarket.Api.Broker;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.History;
using Supermarket.Contracts.Purchases;
using Supermarket.Messaging;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.Api.Purchases;

public static class PurchaseIngestSetup
{
    /// <summary>What POST /purchase needs: validation bounds, the batcher that groups concurrent purchases into one
    /// confirmed publish, Idempotency-Key claims, and the bus, with request clients for the workers' questions.</summary>
    public static IHostApplicationBuilder AddPurchaseIngest(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<CatalogOptions>(builder.Configuration, CatalogOptions.Section);
        builder.Services.AddValidatedOptions<IngestOptions>(builder.Configuration, IngestOptions.Section);
        builder.Services.AddSingleton<IngestMetrics>();
        builder.Services.AddSingleton<ConfirmedPublisher>();
        builder.Services.AddSingleton<IPublishObserver, RefusedPublishObserver>();
        builder.Services.AddSingleton<PurchaseBatcher>();
        builder.Services.AddHostedService(services => services.GetRequiredService<PurchaseBatcher>());
        builder.Services.AddSingleton<PurchaseIngest>();
        builder.Services.AddSingleton<IdempotencyKeyClaimClient>();
        builder.Services.AddSingleton<BrokerConnection>();
        builder.Services.AddSupermarketBus(builder.Configuration, bus =>
        {
            // Published to the exchange of their message type, which the worker that answers binds to its queue:
            // the API names no worker's queue, so its broker user needs no right on one. A question asked before
            // that worker ever started reaches nobody and times out, as it would unanswered. (The sales questions
            // go to their shard's exchange: Insights/SalesShardClients; the Idempotency-Key claims to their type's,
            // from IdempotencyKeyClaimClient's one client.)
            bus.AddRequestClient<PurchasesAtStore>();
            bus.AddRequestClient<PurchasesOfCustomer>();
        },
        // MassTransit starts the bus endpoint, where answers come back, only with the first question, and blocks the
        // thread of every question that arrives meanwhile until it has started (MassTransitBus.ConnectRequestPipe).
        // Tens of questions a second on a cold API starved the thread pool so far that the RabbitMQ client could not
        // finish that start, and the connection was lost for good (ColdStartTests). Started with the bus, it also
        // makes the bus's health, hence /health/ready and BrokerConnection, follow the connection from the start: a
        // bus that only publishes reports itself healthy with the broker gone (MassTransit issue #2716).
        (_, rabbit) => rabbit.AutoStart = true);
        return builder;
    }
}
