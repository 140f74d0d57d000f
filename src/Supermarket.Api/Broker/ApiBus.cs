using MassTransit;
using Supermarket.Api.Workers;
using Supermarket.Contracts.History;
using Supermarket.Messaging;

namespace Supermarket.Api.Broker;

public static class ApiBus
{
    /// <summary>The API's one bus, shared by every feature: publishes, key claims and the workers' questions.</summary>
    public static IHostApplicationBuilder AddApiBus(this IHostApplicationBuilder builder)
    {
        builder.Services.AddSingleton<BrokerConnection>();
        builder.Services.AddSingleton<WorkerQuestions>();
        builder.Services.AddSupermarketBus(builder.Configuration, Topology.ApiNames, bus =>
        {
            // Sent to their message type's exchange, which the answering worker binds: the API's broker user needs no
            // right on a worker's queue (docs/security.md, "Each service its own accounts").
            bus.AddRequestClient<PurchasesAtStore>();
            bus.AddRequestClient<PurchasesOfCustomer>();
        },
        // Started with the bus: else the first questions block their threads until it starts (ColdStartTests), and a
        // bus that only publishes reports itself healthy with the broker gone (docs/api.md, "Health and management").
        (_, rabbit) => rabbit.AutoStart = true);
        return builder;
    }
}
