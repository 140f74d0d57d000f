using System.Diagnostics.Metrics;
using MassTransit;
using MassTransit.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Supermarket.Api.Broker;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Purchases;
using Supermarket.Messaging;

namespace Supermarket.Api.Tests.Purchases;

/// <summary>
/// What POST /purchase publishes through, on MassTransit's in-memory test harness instead of RabbitMQ: the
/// <see cref="ConfirmedPublisher"/>, the refusal observer and the <see cref="BrokerConnection"/>, wired as
/// <see cref="PurchaseIngestSetup"/> wires them. The batcher is made, not started, so a test decides when it runs.
/// </summary>
public sealed class IngestHarness : IAsyncDisposable
{
    private readonly ServiceProvider _services;

    private IngestHarness(ServiceProvider services) => _services = services;

    public ITestHarness Bus => _services.GetRequiredService<ITestHarness>();

    public ConfirmedPublisher Publisher => _services.GetRequiredService<ConfirmedPublisher>();

    public BrokerConnection Connection => _services.GetRequiredService<BrokerConnection>();

    /// <summary>Starts the bus and waits until it says healthy: its receive endpoints start after <c>Start</c>
    /// returns, and until they are ready the <see cref="BrokerConnection"/> rightly refuses questions.</summary>
    public async Task StartAsync()
    {
        var bound = TimeSpan.FromSeconds(30);
        await Bus.Start();
        var status = await _services.GetRequiredService<IBusControl>().WaitForHealthStatus(BusHealthStatus.Healthy, bound);
        if (status != BusHealthStatus.Healthy)
        {
            throw new TimeoutException($"The test bus was still {status} {bound.TotalSeconds} s after it started.");
        }
    }

    /// <summary>Where this harness's metrics are made: a listener tells them from other tests' by it.</summary>
    public IMeterFactory Meters => _services.GetRequiredService<IMeterFactory>();

    /// <param name="configurePublish">A filter on every publish: to hold publishes in flight, or to fail them.</param>
    public static IngestHarness Create(Action<IPublishPipeConfigurator>? configurePublish = null)
    {
        var services = new ServiceCollection()
            .AddLogging()
            .AddMetrics()
            .AddSingleton(Options.Create(new BrokerOptions { Username = "api", Password = "unused" }))
            .AddSingleton(TimeProvider.System)
            .AddSingleton<IngestMetrics>()
            .AddSingleton<BrokerConnection>()
            .AddSingleton<ConfirmedPublisher>()
            .AddSingleton<IPublishObserver, RefusedPublishObserver>()
            .AddMassTransitTestHarness(bus => bus.UsingInMemory((context, memory) =>
            {
                if (configurePublish is not null)
                {
                    memory.ConfigurePublish(configurePublish);
                }

                memory.ConfigureEndpoints(context);
            }))
            .BuildServiceProvider(validateScopes: true);
        return new IngestHarness(services);
    }

    public PurchaseBatcher Batcher(IngestOptions options) =>
        new(Publisher, Options.Create(options), NullLogger<PurchaseBatcher>.Instance);

    /// <summary>Every purchase the bus has published, in the messages that carried them.</summary>
    public async Task<IReadOnlyList<Guid[]>> PublishedAsync()
    {
        await Bus.Published.Any<PurchaseBatchRecorded>();
        return [.. Bus.Published.Select<PurchaseBatchRecorded>().Select(message => message.Context.Message.Purchases.Select(p => p.PurchaseId).ToArray())];
    }

    public static PurchaseRecorded Purchase() =>
        new(Guid.CreateVersion7(), 1, 1, new DateOnly(2021, 1, 1), [new PurchaseLine(1, 1)], DateTimeOffset.UtcNow);

    public async ValueTask DisposeAsync()
    {
        await Bus.Stop();
        await _services.DisposeAsync();
    }
}
