using MassTransit;
using Supermarket.Api.Workers;
using Supermarket.Contracts.History;
using Supermarket.Messaging;

namespace Supermarket.Api.Broker;

public static class ApiBus
{
    /// <summary>The API's one bus, shared by every feature: the purchases' publishes, the Idempotency-Key claims, and
    /// the workers' questions with their request clients; whether the broker is worth trying now
    /// (<see cref="BrokerConnection"/>); and how a GET asks a worker (<see cref="WorkerQuestions"/>).</summary>
    public static IHostApplicationBuilder AddApiBus(this IHostApplicationBuilder builder)
    {
        builder.Services.AddSingleton<BrokerConnection>();
        builder.Services.AddSingleton<WorkerQuestions>();
        builder.Services.AddSupermarketBus(builder.Configuration, Topology.ApiNames, bus =>
        {
            // Published to the exchange of their message type, which the worker that answers binds to its queue:
            // the API names no worker's queue, so its broker user needs no right on one. A question asked before
            // that worker ever started reaches nobody and times out, as it would unanswered. (The sales questions
            // go to their shard's exchange: Insights/SalesShardClients; the Idempotency-Key claims to their type's,
            // from Purchases/IdempotencyKeyClaimClient's one client.)
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
