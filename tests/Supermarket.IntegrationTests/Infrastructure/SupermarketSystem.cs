extern alias Writer;
extern alias Aggregator;

using MassTransit;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Writer::Supermarket.PurchasesWriter;
using Aggregator::Supermarket.SalesAggregator;
using Supermarket.ServiceDefaults;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>
/// The whole system against the real RabbitMQ and MariaDB: the API (in memory, through WebApplicationFactory),
/// the Purchases writer and the Sales aggregator, each hosted exactly as its Program.cs hosts it.
/// Started once for every test in the <see cref="SystemCollection"/>.
/// </summary>
public sealed class SupermarketSystem : IAsyncLifetime
{
    private ApiFactory? _api;
    private RunningWorker? _writer;
    private RunningWorker? _aggregator;
    private int _healthProbes;

    public HttpClient Api { get; private set; } = null!;

    public IBus Bus => _api!.Services.GetRequiredService<IBus>();

    /// <summary>Where the running writer and aggregator serve their health and metrics.</summary>
    public Uri WriterUrl => (_writer ?? throw new InvalidOperationException("The writer is stopped.")).Url;

    /// <summary>The running aggregator's management address (/health/*, /metrics, /about).</summary>
    public Uri AggregatorUrl => (_aggregator ?? throw new InvalidOperationException("The aggregator is stopped.")).Url;

    public async ValueTask InitializeAsync()
    {
        await RealServices.PrepareAsync();
        await StartWriterAsync();
        await StartStoreAsync();
        _api = new ApiFactory(TestSettings.For());
        Api = _api.CreateClient();
        await WaitUntilReadyAsync(Api);
    }

    /// <summary>A client of the running API with the given credential (a JWT), or none.</summary>
    public HttpClient ClientWith(string? credential)
    {
        var client = _api!.CreateClient();
        client.DefaultRequestHeaders.Authorization = credential is null ? null : new System.Net.Http.Headers.AuthenticationHeaderValue("Bearer", credential);
        return client;
    }

    public async Task StopStoreAsync()
    {
        await StopAsync(_aggregator);
        _aggregator = null;
    }

    public async Task StartStoreAsync()
    {
        _aggregator ??= await StartWorkerAsync(Worker.Aggregator, TestSettings.For());
        await WaitUntilReadyAsync(_aggregator);
    }

    public async Task StopWriterAsync()
    {
        await StopAsync(_writer);
        _writer = null;
    }

    public async Task StartWriterAsync()
    {
        _writer ??= await StartWorkerAsync(Worker.Writer);
        await WaitUntilReadyAsync(_writer);
    }

    public async ValueTask DisposeAsync()
    {
        await StopStoreAsync();
        await StopWriterAsync();
        if (_api is not null)
        {
            await _api.DisposeAsync();
        }
    }

    private static async Task StopAsync(RunningWorker? worker)
    {
        if (worker is not null)
        {
            await worker.DisposeAsync();
        }
    }

    public static Task<RunningWorker> StartWorkerAsync(Worker worker, bool persistent = true) =>
        StartWorkerAsync(worker, TestSettings.For(persistent));

    /// <summary>A worker of the system, as its own service's users.</summary>
    public static Task<RunningWorker> StartWorkerAsync(Worker worker, Dictionary<string, string?> settings, bool untilBusStarted = true) =>
        worker switch
        {
            Worker.Writer => StartWorkerAsync(builder => builder.AddPurchaseRecording(), TestSettings.WriterAccounts(), settings, untilBusStarted, logName: "writer"),
            _ => StartWorkerAsync(builder => builder.AddSalesAggregation(), TestSettings.AggregatorAccounts(), settings, untilBusStarted, logName: "aggregator"),
        };

    /// <summary>An aggregator counting shard <paramref name="shard"/> of <paramref name="shards"/>, ready to answer.</summary>
    public static async Task<RunningWorker> StartShardAsync(int shard, int shards)
    {
        var aggregator = await StartWorkerAsync(Worker.Aggregator, new Dictionary<string, string?>(TestSettings.For())
        {
            ["SalesShards:Count"] = shards.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Aggregator:Shard"] = shard.ToString(System.Globalization.CultureInfo.InvariantCulture),
        });
        await WaitUntilReadyAsync(aggregator);
        return aggregator;
    }

    /// <summary>The migration step, as the writer's Program.cs runs it with <c>migrate</c>: as the schema owner, with
    /// <paramref name="settings"/> on top.</summary>
    public static Task MigrateSchemaAsync(Dictionary<string, string?> settings)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Configuration.AddInMemoryCollection(TestSettings.OwnerAccounts());
        builder.Configuration.AddInMemoryCollection(settings);
        return builder.MigrateSchemaAsync();
    }

    /// <summary>A worker as its Program.cs hosts it (service defaults, its services, the default endpoints), on
    /// a port of its own, as the <paramref name="accounts"/> given (which <paramref name="settings"/> may override).
    /// By default the start waits for its bus: MassTransit cannot stop a bus that is still
    /// starting ("Failed to stop bus (Not Started)"), which then starts anyway and consumes with its host's services
    /// disposed (found: a test's aggregator, stopped right after its rebuild, faulted a later test's questions).</summary>
    public static async Task<RunningWorker> StartWorkerAsync(Action<IHostApplicationBuilder> add,
        Dictionary<string, string?> accounts, Dictionary<string, string?> settings, bool untilBusStarted = true, string logName = "worker")
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.AddHostLog(logName);
        builder.Configuration.AddInMemoryCollection(accounts);
        builder.Configuration.AddInMemoryCollection(settings);
        builder.Services.Configure<MassTransitHostOptions>(host => host.WaitUntilStarted = untilBusStarted);
        builder.AddServiceDefaults();
        add(builder);
        var app = builder.Build();
        app.MapDefaultEndpoints();
        await app.StartAsync();
        return new RunningWorker(app);
    }

    /// <summary>
    /// A test that stops a service leaves it recovering (MassTransit reconnects with back-off): the tests after it
    /// must not inherit that. This waits, bounded, until a purchase goes all the way through again: POST 201, the
    /// writer stores it, the aggregator counts it and a GET answers with it. Store 498 and item 99998 are its own.
    /// </summary>
    public async Task WaitUntilHealthyAsync()
    {
        const int store = 498, item = 99998;
        var probe = Interlocked.Increment(ref _healthProbes);
        var posted = await Eventually.UntilAsync(
            async () => (await Purchases.PostAsync(Api, $"/purchase/{store}/customer/{probe}/date/20210101", Purchases.Body((item, 1)))).StatusCode,
            status => status == System.Net.HttpStatusCode.Created, TimeSpan.FromSeconds(90));
        Assert.Equal(System.Net.HttpStatusCode.Created, posted);

        // The GET's own wait for the broker's return gets the same bound: the API asks workers again only once its bus
        // is healthy, and its response endpoint reconnects with MassTransit's back-off, which outlasted Eventually's
        // default 30 s after a broker restart (BrokerOutageTests, in a clean clone's CI run).
        (int, long)[] expected = [(store, probe)];
        var recovery = TimeSpan.FromSeconds(90);
        var counted = await Eventually.UntilAsync(() => InsightAnswers.TopStoresAsync(Api, item, within: recovery), got => got.SequenceEqual(expected), recovery);
        Assert.Equal(expected, counted);

        // A history page travels its own way: to the writer's history endpoint, which reconnects after a broker restart
        // on its own back-off (found: after ConnectionLossTests, AccessTests' first history reads got 504 in a clean
        // clone's CI run, while the POSTs and the sales questions above were answered). A read waits at most its
        // deadline, so these few polls stay far under a caller's reads a minute.
        using var analyst = ClientWith(TestSettings.Analyst("health-probe"));
        var history = await Eventually.UntilAsync(
            async () => (await analyst.GetAsync($"/purchases/customer/{store}001")).StatusCode, status => status == System.Net.HttpStatusCode.OK, recovery);
        Assert.Equal(System.Net.HttpStatusCode.OK, history);
    }

    public static async Task WaitUntilReadyAsync(RunningWorker worker)
    {
        using var http = new HttpClient { BaseAddress = worker.Url };
        await WaitUntilReadyAsync(http);
    }

    public static async Task WaitUntilReadyAsync(HttpClient api)
    {
        var ready = await Eventually.UntilAsync(
            async () => (await api.GetAsync("/health/ready")).IsSuccessStatusCode, ok => ok, TimeSpan.FromSeconds(30));
        Assert.True(ready, $"{api.BaseAddress} did not report ready within 30 s.");
    }

    public sealed class ApiFactory(Dictionary<string, string?> settings) : WebApplicationFactory<Program>
    {
        /// <summary>Every client carries an analyst's credential: purchase history needs one, and the course's open
        /// API ignores it. AccessTests take it off where the point is its absence.</summary>
        protected override void ConfigureClient(HttpClient client)
        {
            base.ConfigureClient(client);
            client.DefaultRequestHeaders.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("Bearer", TestSettings.Analyst());
        }

        protected override void ConfigureWebHost(IWebHostBuilder builder)
        {
            foreach (var (key, value) in TestSettings.ApiAccounts().Concat(settings))
            {
                builder.UseSetting(key, value);
            }

            builder.ConfigureLogging(logging => logging.AddHostLog("api"));
        }
    }
}

/// <summary>The system's workers, each started as its own service's users.</summary>
public enum Worker
{
    Writer,
    Aggregator,
}

[CollectionDefinition(nameof(SystemCollection))]
public sealed class SystemCollection : ICollectionFixture<SupermarketSystem>;
