using MassTransit;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Supermarket.Messaging;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Foundation;

/// <summary>The ground is real: MassTransit, configured as every process configures it, over the real RabbitMQ.</summary>
public sealed class BrokerRoundTripTests
{
    public sealed record Ping(Guid Id);

    public sealed class PingConsumer(TaskCompletionSource<Guid> received) : IConsumer<Ping>
    {
        public Task Consume(ConsumeContext<Ping> context)
        {
            received.TrySetResult(context.Message.Id);
            return Task.CompletedTask;
        }
    }

    [Fact]
    public async Task A_published_message_reaches_a_consumer_through_RabbitMQ()
    {
        await RealServices.PrepareAsync();
        var received = new TaskCompletionSource<Guid>(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var host = await SupermarketSystem.StartWorkerAsync(builder =>
        {
            builder.Services.AddSingleton(received);
            builder.Services.AddSupermarketBus(builder.Configuration, "supermarket.tests",
                bus => bus.AddConsumer<PingConsumer>(),
                (context, rabbit) => rabbit.ReceiveEndpoint("supermarket.tests.ping", e => e.ConfigureConsumer<PingConsumer>(context)));
        },
        // The broker's administrator: this is about the broker, and no service's user may use the tests' names.
        new Dictionary<string, string?> { ["Broker:Username"] = TestSettings.Accounts.BrokerAdmin.User, ["Broker:Password"] = TestSettings.Accounts.BrokerAdmin.Password },
        TestSettings.For());

        // Ready: the endpoint consumes, so its queue is bound and the message has somewhere to go.
        await SupermarketSystem.WaitUntilReadyAsync(host);
        var id = Guid.NewGuid();
        await host.Services.GetRequiredService<IBus>().Publish(new Ping(id));

        Assert.Equal(id, await received.Task.WaitAsync(TimeSpan.FromSeconds(20)));
        await host.StopAsync();
    }
}
