using MassTransit;
using MassTransit.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Supermarket.Api.Broker;
using Supermarket.Api.Insights;
using Supermarket.Api.Live;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.Messaging;

namespace Supermarket.Api.Tests.Live;

/// <summary>The live page's questions (<see cref="LiveSales"/>) asked of a shard on MassTransit's in-memory test
/// harness, which answers as a script says and counts what it was asked: pages watching the same question share its
/// asking, nothing is asked once no page watches, and a ranking counted through less than the one shown is not shown.</summary>
public sealed class LiveSalesTests : IAsyncLifetime
{
    private static readonly TimeSpan Update = TimeSpan.FromMilliseconds(100);
    private readonly Shard _shard = new();
    private ServiceProvider _services = null!;

    private LiveSales Live => _services.GetRequiredService<LiveSales>();

    public async ValueTask InitializeAsync()
    {
        _services = new ServiceCollection()
            .AddLogging()
            .AddMetrics()
            .AddSingleton(_shard)
            .AddSingleton(TimeProvider.System)
            .AddSingleton(Options.Create(new InsightOptions()))
            .AddSingleton(Options.Create(new SalesShardOptions()))
            .AddSingleton(Options.Create(new CatalogOptions()))
            .AddSingleton(Options.Create(new LiveOptions { UpdateInterval = Update }))
            .AddSingleton<IngestMetrics>()
            .AddSingleton<BrokerConnection>()
            .AddSingleton<SalesShardClients>()
            .AddSingleton<LiveSales>()
            .AddMassTransitTestHarness(bus => bus.AddConsumer<ShardConsumer>()
                .Endpoint(endpoint => endpoint.Name = Topology.SalesQuestionsExchange(1, 1)))
            .BuildServiceProvider(validateScopes: true);
        await _services.GetRequiredService<ITestHarness>().Start();
    }

    [Fact]
    public async Task Pages_watching_the_same_question_share_one_asking_an_update_and_none_goes_on_once_they_leave()
    {
        var question = new LiveQuestion(LiveQuestionKind.TopItemsAtStore, 5, null, null);
        var viewers = Enumerable.Range(0, 20).Select(_ => Live.Watch(question)!).ToList();
        using var other = Live.Watch(question with { Id = 6 })!;

        // Counted against the question one page watches, not the clock: a slow or busy machine asks both less often.
        await AskedAtLeast(5, times: 2);
        await AskedAtLeast(6, times: 5);
        var asked = _shard.AskedAbout(5);
        var askedAlone = _shard.AskedAbout(6);
        // About as often as the other; each of the 20 pages asking for itself would be about 20 times as often.
        Assert.InRange(asked, 2, (3 * askedAlone) + 3);
        Assert.All(viewers, viewer => Assert.Equal("current", viewer.Latest.State));

        viewers.ForEach(viewer => viewer.Dispose());
        await Task.Delay(5 * Update);
        var afterLeaving = _shard.AskedAbout(5);
        await Task.Delay(10 * Update);
        // An asking already on its way when the last page left may still arrive; none after it.
        Assert.InRange(_shard.AskedAbout(5), afterLeaving, afterLeaving + 1);
    }

    /// <summary>Waits until the shard was asked about <paramref name="store"/> <paramref name="times"/> times; fails
    /// after 30 s (about 100 updates).</summary>
    private async Task AskedAtLeast(int store, int times)
    {
        using var patience = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        while (_shard.AskedAbout(store) < times)
        {
            await Task.Delay(Update / 10, patience.Token);
        }
    }

    [Fact]
    public async Task A_ranking_counted_through_less_than_the_one_shown_is_not_shown()
    {
        // Counted through 5 with 9 units, then an answer through 3 with 4 units (none of the aggregators gives one,
        // but a page must not show it if one came), then through 7 with 12.
        _shard.Script((5, 9), (3, 4), (7, 12));
        using var viewer = Live.Watch(new LiveQuestion(LiveQuestionKind.TopItemsAtStore, 8, null, null))!;

        var shown = new List<(long CountedThrough, long Units)>();
        using var patience = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        while (shown.Count == 0 || shown[^1].CountedThrough < 7)
        {
            await viewer.Changed.WaitAsync(patience.Token);
            if (viewer.Latest.Bars is [var bar, ..])
            {
                shown.Add((viewer.Latest.CountedThrough, bar.Units));
            }
        }

        Assert.DoesNotContain(shown, ranking => ranking.CountedThrough < 5 || ranking.Units < 9);
        Assert.Equal((7, 12), shown[^1]);
    }

    public async ValueTask DisposeAsync()
    {
        Live.Dispose();
        await _services.GetRequiredService<ITestHarness>().Stop();
        await _services.DisposeAsync();
    }

    /// <summary>Answers a store's top items with the store's own id as the item, counted through and with the units
    /// its script says next (the last repeated; without a script, through the number of the asking with one unit);
    /// counts the questions about each store.</summary>
    public sealed class Shard
    {
        private readonly Lock _lock = new();
        private readonly Dictionary<int, int> _asked = [];
        private Queue<(long CountedThrough, long Units)> _script = new();
        private (long CountedThrough, long Units)? _last;

        public int AskedAbout(int store)
        {
            lock (_lock)
            {
                return _asked.GetValueOrDefault(store);
            }
        }

        public void Script(params (long CountedThrough, long Units)[] answers)
        {
            lock (_lock)
            {
                _script = new Queue<(long, long)>(answers);
            }
        }

        public SalesAnswers Answer(SalesQuestions questions)
        {
            lock (_lock)
            {
                var items = questions.TopItems.Select(question =>
                {
                    var asked = _asked[question.StoreId] = _asked.GetValueOrDefault(question.StoreId) + 1;
                    var (countedThrough, units) = _script.TryDequeue(out var next) ? (_last = next).Value : _last ?? (asked, 1);
                    return new TopItemsAtStore(question.StoreId, [new ItemSales(question.StoreId, units)], countedThrough);
                });
                return new SalesAnswers([.. items], [.. questions.TopStores.Select(question => new TopStoresOfItem(question.ItemId, [], 0))]);
            }
        }
    }

    public sealed class ShardConsumer(Shard shard) : IConsumer<SalesQuestions>
    {
        public Task Consume(ConsumeContext<SalesQuestions> context) => context.RespondAsync(shard.Answer(context.Message));
    }
}
