using MassTransit;
using MassTransit.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Supermarket.PurchasesWriter.History;
using Supermarket.PurchasesWriter.IdempotencyKeys;
using Supermarket.PurchasesWriter.Recording;
using Supermarket.PurchasesWriter.Storage;
using Supermarket.PurchasesWriter.Tests.History;
using Supermarket.PurchasesWriter.Tests.IdempotencyKeys;
using Supermarket.PurchasesWriter.Tests.Recording;

namespace Supermarket.PurchasesWriter.Tests;

/// <summary>
/// The writer's consumers with their definitions, as <see cref="PurchaseRecordingSetup"/> registers them, on
/// MassTransit's in-memory test harness instead of RabbitMQ, and with MySQL replaced at its seams: the purchases, the
/// idempotency keys and the history given by each test.
/// </summary>
public sealed class WriterHarness : IAsyncDisposable
{
    private readonly ServiceProvider _services;

    private WriterHarness(ServiceProvider services) => _services = services;

    public ITestHarness Bus => _services.GetRequiredService<ITestHarness>();

    public DatabaseAvailability Database => _services.GetRequiredService<DatabaseAvailability>();

    public static async Task<WriterHarness> StartAsync(IPurchaseStore? purchases = null, IIdempotencyKeyStore? keys = null,
        IPurchaseHistory? history = null, WriterOptions? writer = null)
    {
        var services = new ServiceCollection()
            .AddLogging()
            .AddMetrics()
            .AddSingleton(TimeProvider.System)
            .AddSingleton(Options.Create(writer ?? new WriterOptions()))
            .AddSingleton(Options.Create(new HistoryOptions()))
            .AddSingleton(purchases ?? new PurchasesInMemory())
            .AddSingleton(keys ?? new IdempotencyKeysInMemory())
            .AddSingleton(history ?? new HistoryInMemory())
            .AddSingleton<DatabaseAvailability>()
            .AddSingleton<WriterMetrics>()
            .AddSingleton<UnstorablePurchases>()
            .AddSingleton<PurchaseWriter>()
            .AddSingleton<HistoryMetrics>()
            .AddMassTransitTestHarness(bus =>
            {
                bus.AddConsumer<PurchaseBatchRecordedConsumer, PurchaseBatchRecordedConsumerDefinition>();
                bus.AddConsumer<IdempotencyKeyClaims, IdempotencyKeyClaimsDefinition>();
                bus.AddConsumer<PurchaseHistoryQueries, PurchaseHistoryQueriesDefinition>();
            })
            .BuildServiceProvider(validateScopes: true);
        var harness = new WriterHarness(services);
        await harness.Bus.Start();
        return harness;
    }

    public async ValueTask DisposeAsync()
    {
        await Bus.Stop();
        await _services.DisposeAsync();
    }
}
