extern alias PurchasesWorker;
extern alias StoreWorker;

using MassTransit;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using PurchasesWorker::Supermarket.Purchases;
using StoreWorker::Supermarket.Store;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>
/// The whole system against the real RabbitMQ and MariaDB: the API (in memory, through WebApplicationFactory),
/// the Purchases writer and the Store aggregator, each hosted exactly as its Program.cs hosts it.
/// Started once for every test in the <see cref="SystemCollection"/>.
/// </summary>
public sealed class SupermarketSystem : IAsyncLifetime
{
    private ApiFactory? _api;
    private IHost? _writer;
    private IHost? _store;

    public HttpClient Api { get; private set; } = null!;

    public IBus Bus => _api!.Services.GetRequiredService<IBus>();

    public async Task InitializeAsync()
    {
        await RealServices.PrepareAsync();
        await StartWriterAsync();
        await StartStoreAsync();
        _api = new ApiFactory(TestSettings.For());
        Api = _api.CreateClient();
        await WaitUntilReadyAsync(Api);
    }

    public async Task StopStoreAsync()
    {
        await StopAsync(_store);
        _store = null;
    }

    public async Task StartStoreAsync() => _store ??= await StartWorkerAsync(builder => builder.AddSalesAggregation());

    public async Task StopWriterAsync()
    {
        await StopAsync(_writer);
        _writer = null;
    }

    public async Task StartWriterAsync() => _writer ??= await StartWorkerAsync(builder => builder.AddPurchaseRecording());

    public async Task DisposeAsync()
    {
        await StopStoreAsync();
        await StopWriterAsync();
        if (_api is not null)
        {
            await _api.DisposeAsync();
        }
    }

    private static async Task StopAsync(IHost? worker)
    {
        if (worker is not null)
        {
            await worker.StopAsync();
            worker.Dispose();
        }
    }

    public static async Task<IHost> StartWorkerAsync(Action<IHostApplicationBuilder> add, bool persistent = true)
    {
        var builder = Host.CreateApplicationBuilder();
        builder.Configuration.AddInMemoryCollection(TestSettings.For(persistent));
        builder.Services.Configure<MassTransitHostOptions>(host => host.WaitUntilStarted = true);
        add(builder);
        var host = builder.Build();
        await host.StartAsync();
        return host;
    }

    public static async Task WaitUntilReadyAsync(HttpClient api)
    {
        var ready = await Eventually.UntilAsync(
            async () => (await api.GetAsync("/health/ready")).IsSuccessStatusCode, ok => ok, TimeSpan.FromSeconds(30));
        Assert.True(ready, "The API did not report ready (connected to RabbitMQ) within 30 s.");
    }

    public sealed class ApiFactory(Dictionary<string, string?> settings) : WebApplicationFactory<Program>
    {
        protected override void ConfigureWebHost(IWebHostBuilder builder)
        {
            foreach (var (key, value) in settings)
            {
                builder.UseSetting(key, value);
            }
        }
    }
}

[CollectionDefinition(nameof(SystemCollection))]
public sealed class SystemCollection : ICollectionFixture<SupermarketSystem>;
