using MassTransit;
using MassTransit.Testing;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Supermarket.Database.History;
using Supermarket.Database.IdempotencyKeys;
using Supermarket.Database.Purchases;
using Supermarket.Database.Schema;
using Supermarket.PurchasesWriter.History;
using Supermarket.PurchasesWriter.IdempotencyKeys;
using Supermarket.PurchasesWriter.Recording;
using Supermarket.PurchasesWriter.Tests.History;
using Supermarket.PurchasesWriter.Tests.IdempotencyKeys;
using Supermarket.PurchasesWriter.Tests.Recording;

namespace Supermarket.PurchasesWriter.Tests;

/// <summary>
/// The writer as <see cref="PurchaseRecordingSetup"/> wires it for Program.cs, with two seams replaced: MassTransit's
/// in-memory test harness instead of RabbitMQ, and MySQL's stores (the purchases, the idempotency keys and the history)
/// by the ones each test gives, and with them the check that MySQL's schema is current. The host is built, not
/// started; the harness starts the bus.
/// </summary>
public sealed class WriterHarness : IAsyncDisposable
{
    private readonly IHost _host;

    private WriterHarness(IHost host) => _host = host;

    public ITestHarness Bus => _host.Services.GetRequiredService<ITestHarness>();

    public DatabaseAvailability Database => _host.Services.GetRequiredService<DatabaseAvailability>();

    public static async Task<WriterHarness> StartAsync(IPurchaseStore? purchases = null, IIdempotencyKeyStore? keys = null,
        IPurchaseHistory? history = null, WriterOptions? writer = null, TimeProvider? clock = null)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            // Required of every writer; unused here, where nothing reaches a broker or a database.
            ["Broker:Username"] = "writer",
            ["Broker:Password"] = "unused",
            ["Database:User"] = "writer",
            ["Database:Password"] = "unused",
        });
        builder.Services.AddSingleton(clock ?? TimeProvider.System);
        builder.AddPurchaseRecording();
        builder.Services.Remove(builder.Services.Single(service => service.ImplementationType == typeof(SchemaIsCurrent)));
        builder.Services
            .AddSingleton(Options.Create(writer ?? new WriterOptions()))
            .AddSingleton(purchases ?? new PurchasesInMemory())
            .AddSingleton(keys ?? new IdempotencyKeysInMemory())
            .AddSingleton(history ?? new HistoryInMemory())
            .AddMassTransitTestHarness();
        var harness = new WriterHarness(builder.Build());
        await harness.Bus.Start();
        return harness;
    }

    public async ValueTask DisposeAsync()
    {
        await Bus.Stop();
        _host.Dispose();
    }
}
