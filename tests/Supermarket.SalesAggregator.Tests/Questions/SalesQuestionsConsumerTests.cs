using MassTransit;
using MassTransit.Testing;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.Messaging;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesAggregator.Ledger;
using Supermarket.SalesAggregator.Questions;
using Supermarket.SalesAggregator.Sharding;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Tests.Questions;

/// <summary>The aggregator's answers, on MassTransit's in-memory test harness: request/response as the API asks, to
/// its shard's exchange. The matrix here is the second of two shards of a 50-item catalog; the ledger's reads are
/// played by the tests (<see cref="FollowTheLedger"/>, or one read at a time).</summary>
public sealed class SalesQuestionsConsumerTests : IAsyncLifetime
{
    private static readonly SalesShard Shard = new(Number: 2, Count: 2, Items: new ItemRange(26, 50), MaxItemId: 50, MaxStores: 8);
    private readonly SalesMatrix _matrix = Shard.NewMatrix();
    private readonly SalesByDay _days = Shard.NewDays(daysKept: 3);
    private readonly MatrixReadiness _readiness = new();
    private readonly CancellationTokenSource _stop = new();
    private readonly ClockAhead _clock = new();
    private ServiceProvider _services = null!;

    private ITestHarness Harness => _services.GetRequiredService<ITestHarness>();

    /// <summary>Asks as the API does: at the shard's own exchange.</summary>
    private IRequestClient<T> Ask<T>()
        where T : class =>
        Harness.Bus.CreateRequestClient<T>(new Uri($"exchange:{Topology.SalesQuestionsExchange(Shard.Number, Shard.Count)}"));

    public async ValueTask InitializeAsync()
    {
        _services = new ServiceCollection()
            .AddMetrics()
            .AddSingleton(_matrix)
            .AddSingleton(_days)
            .AddSingleton(_readiness)
            .AddSingleton(Shard)
            .AddSingleton<SalesMetrics>()
            .AddSingleton(Microsoft.Extensions.Options.Options.Create(new AggregatorOptions { Shard = Shard.Number }))
            .AddSingleton<CountingPace>()
            .AddSingleton<TimeProvider>(_clock)
            .AddMassTransitTestHarness(bus =>
            {
                bus.AddConsumer<SalesQuestionsConsumer, SalesQuestionsConsumerDefinition>();
                // The definition binds the shard's queue to the shard's exchange on RabbitMQ; on the harness's in-memory
                // transport the binding is made here, so that questions reach the queue by the same exchange.
                bus.AddConfigureEndpointsCallback((queue, endpoint) =>
                {
                    if (queue == Topology.SalesQuestionsQueue(Shard.Number, Shard.Count) && endpoint is IInMemoryReceiveEndpointConfigurator inMemory)
                    {
                        inMemory.Bind(Topology.SalesQuestionsExchange(Shard.Number, Shard.Count));
                    }
                });
            })
            .BuildServiceProvider(validateScopes: true);
        await Harness.Start();
    }

    [Fact]
    public async Task The_top_items_at_a_store_come_from_the_matrix_best_first_with_how_far_it_counted()
    {
        var storedAt = new DateTime(2021, 4, 1, 12, 0, 0, DateTimeKind.Utc);
        _matrix.RecordSales([new SaleLine(3, 27, 5), new SaleLine(3, 29, 8), new SaleLine(4, 27, 100)]);
        _services.GetRequiredService<CountingPace>().Counted(2, storedAt);
        _readiness.CountedUpTo(42);
        _readiness.Complete(fromCheckpoint: false, entriesRead: 1);
        FollowTheLedger();

        var answer = await Ask<TopItemsForStore>().GetResponse<TopItemsAtStore>(new TopItemsForStore(3, 10));

        Assert.Equal([new ItemSales(29, 8), new ItemSales(27, 5)], answer.Message.Items);
        Assert.Equal(42, answer.Message.CountedThrough);
        // The live page's view of the counting: this shard and replica, counted through the entry stored last.
        var counting = Assert.Single(answer.Message.Counting!);
        Assert.Equal((Shard.Number, storedAt), (counting.Shard, counting.CountedStoredAt));
    }

    [Fact]
    public async Task A_range_of_days_is_ranked_from_its_days_and_one_it_cannot_count_exactly_is_refused()
    {
        var day = new DateOnly(2021, 4, 1);
        SaleLine[] lines = [new(3, 27, 5, day), new(3, 29, 1, day.AddDays(1)), new(4, 29, 9, day.AddDays(1)), new(3, 27, 1, day.AddDays(2))];
        _matrix.RecordSales(lines);
        _days.RecordSales(lines);
        _readiness.Complete(fromCheckpoint: false, entriesRead: 1);
        FollowTheLedger();

        Assert.Equal([new ItemSales(27, 1), new ItemSales(29, 1)], (await TopItemsAsync(3, day.AddDays(1), null)).Items);
        Assert.Equal([new StoreSales(4, 9), new StoreSales(3, 1)], (await Ask<TopStoresForItem>().GetResponse<TopStoresOfItem>(new TopStoresForItem(29, 5, null, day.AddDays(1)))).Message.Stores);
        Assert.Equal([new ItemSales(27, 6), new ItemSales(29, 1)], (await TopItemsAsync(3, null, null)).Items);
        Assert.Equal("to", (await TopItemsAsync(3, day, day.AddDays(3))).Refused?.Parameter);

        // A fourth day with sales pushes out the first: a range that reaches it would miss its sales.
        _days.RecordSales([new SaleLine(3, 30, 1, day.AddDays(9))]);
        Assert.Equal(new RangeRefused("from", "The sales kept begin on 20210402: a range can start on that day or later."), (await TopItemsAsync(3, day, day.AddDays(1))).Refused);
        Assert.Null((await TopItemsAsync(3, null, day.AddDays(9))).Refused);

        // Lines counted without a day: no range is exact any more, all time still is.
        _readiness.UndatedUnits = 2;
        Assert.True((await TopItemsAsync(3, day.AddDays(1), null)).Refused?.Undated);
        Assert.Null((await TopItemsAsync(3, null, null)).Refused);

        // Dated beyond what the ledger held without a day (entries lost and filled by hand): the days hold the purchases'.
        _readiness.UndatedUnits = -3;
        Assert.Null((await TopItemsAsync(3, day.AddDays(1), null)).Refused);
    }

    private async Task<TopItemsAtStore> TopItemsAsync(int store, DateOnly? from, DateOnly? to) =>
        (await Ask<TopItemsForStore>().GetResponse<TopItemsAtStore>(new TopItemsForStore(store, 10, from, to))).Message;

    [Fact]
    public async Task The_top_stores_for_an_item_come_from_the_matrix()
    {
        _matrix.RecordSales([new SaleLine(2, 37, 5), new SaleLine(6, 37, 6)]);
        _readiness.Complete(fromCheckpoint: false, entriesRead: 0);
        FollowTheLedger();

        var answer = await Ask<TopStoresForItem>().GetResponse<TopStoresOfItem>(new TopStoresForItem(37, 1));

        Assert.Equal([new StoreSales(6, 6)], answer.Message.Stores);
    }

    /// <summary>An API that routes by another split of the items (or another catalog) asks a shard of an item it does
    /// not count: an empty answer would read as "no store sold it" (#57). The question is refused instead, and the
    /// API answers an error.</summary>
    [Theory]
    [InlineData(7, 0)] // the first shard's item
    [InlineData(51, 0)] // beyond the catalog
    [InlineData(0, 9)] // a store beyond the catalog
    public async Task A_question_this_shard_cannot_answer_is_refused_not_answered_empty(int item, int store)
    {
        _readiness.Complete(fromCheckpoint: false, entriesRead: 0);
        FollowTheLedger();
        var questions = item > 0
            ? new SalesQuestions([new TopItemsForStore(3, 10)], [new TopStoresForItem(item, 5)])
            : new SalesQuestions([new TopItemsForStore(store, 10)], []);

        var refused = await Assert.ThrowsAsync<RequestFaultException>(() =>
            Ask<SalesQuestions>().GetResponse<SalesAnswers>(questions, timeout: RequestTimeout.After(s: 5)));

        Assert.Contains(item > 0 ? $"item {item}" : $"store {store}", refused.Fault?.Exceptions.Single().Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Questions_asked_together_are_answered_together_in_their_order()
    {
        _matrix.RecordSales([new SaleLine(3, 27, 5), new SaleLine(4, 29, 8)]);
        _readiness.CountedUpTo(9);
        _readiness.Complete(fromCheckpoint: false, entriesRead: 1);
        FollowTheLedger();

        var answers = (await Ask<SalesQuestions>().GetResponse<SalesAnswers>(new SalesQuestions(
            [new TopItemsForStore(4, 10), new TopItemsForStore(3, 10), new TopItemsForStore(5, 10)],
            [new TopStoresForItem(27, 5)]))).Message;

        Assert.Equal([[new ItemSales(29, 8)], [new ItemSales(27, 5)], []], answers.TopItems.Select(answer => answer.Items));
        Assert.Equal([4, 3, 5], answers.TopItems.Select(answer => answer.StoreId));
        Assert.Equal([new StoreSales(3, 5)], answers.TopStores.Single().Stores);
        Assert.All(answers.TopItems, answer => Assert.Equal(9, answer.CountedThrough));
    }

    [Fact]
    public async Task A_question_asked_before_the_matrix_caught_up_waits_for_it()
    {
        _matrix.RecordSales([new SaleLine(1, 26, 1)]);
        FollowTheLedger();
        var asked = Ask<TopItemsForStore>().GetResponse<TopItemsAtStore>(new TopItemsForStore(1, 1));

        // Half a second is ample for the in-memory bus to answer; an answer in it came from a half-built matrix.
        await Task.WhenAny(asked, Task.Delay(TimeSpan.FromMilliseconds(500)));
        Assert.False(asked.IsCompleted);
        _readiness.Complete(fromCheckpoint: true, entriesRead: 0);

        Assert.Equal([new ItemSales(26, 1)], (await asked).Message.Items);
    }

    [Fact]
    public async Task A_question_is_answered_after_a_read_of_the_ledger_begun_once_it_arrived_found_nothing_more()
    {
        _matrix.RecordSales([new SaleLine(1, 26, 1)]);
        _readiness.CountedUpTo(5);
        _readiness.Complete(fromCheckpoint: false, entriesRead: 5);
        var before = _readiness.BeginRead();
        var asked = Ask<TopItemsForStore>().GetResponse<TopItemsAtStore>(new TopItemsForStore(1, 1));

        // The read in flight when the question came may have begun before entries another replica has counted.
        await Task.WhenAny(asked, Task.Delay(TimeSpan.FromMilliseconds(300)));
        _readiness.CaughtUp(before);
        await Task.WhenAny(asked, Task.Delay(TimeSpan.FromMilliseconds(300)));
        Assert.False(asked.IsCompleted);
        Assert.True(_readiness.ReadWanted.IsCompleted, "the question did not end the feed's pause");

        var after = _readiness.BeginRead();
        _matrix.RecordSales([new SaleLine(1, 26, 2)]);
        _readiness.CountedUpTo(8);
        _readiness.CaughtUp(after);

        Assert.Equal((8L, 3L), ((await asked).Message.CountedThrough, (await asked).Message.Items[0].Units));
    }

    [Fact]
    public async Task A_question_no_read_catches_up_for_is_left_unanswered_when_it_expires()
    {
        _readiness.Complete(fromCheckpoint: false, entriesRead: 0);

        // As while MariaDB is down: every read fails, none catches up.
        await Assert.ThrowsAsync<RequestTimeoutException>(() =>
            Ask<TopStoresForItem>().GetResponse<TopStoresOfItem>(new TopStoresForItem(30, 5), timeout: RequestTimeout.After(s: 1)));
    }

    [Fact]
    public async Task A_question_is_answered_by_an_aggregator_whose_clock_runs_ahead_of_the_askers()
    {
        _matrix.RecordSales([new SaleLine(2, 30, 4)]);
        _readiness.Complete(fromCheckpoint: false, entriesRead: 0);
        // Ahead by more than the question's time to live: by its own clock every question has expired on arrival.
        _clock.Ahead = TimeSpan.FromMinutes(10);
        FollowTheLedger();

        var answer = await Ask<TopStoresForItem>().GetResponse<TopStoresOfItem>(new TopStoresForItem(30, 5), timeout: RequestTimeout.After(s: 5));

        Assert.Equal([new StoreSales(2, 4)], answer.Message.Stores);
    }

    /// <summary>The aggregator's machine's clock, set ahead of the asker's.</summary>
    private sealed class ClockAhead : TimeProvider
    {
        public TimeSpan Ahead { get; set; }

        public override DateTimeOffset GetUtcNow() => base.GetUtcNow() + Ahead;
    }

    /// <summary>As the feed does once caught up: each read a question wants finds nothing more to count.</summary>
    private void FollowTheLedger() => _ = Task.Run(async () =>
    {
        while (!_stop.IsCancellationRequested)
        {
            await Task.WhenAny(_readiness.ReadWanted, Task.Delay(Timeout.Infinite, _stop.Token));
            _readiness.CaughtUp(_readiness.BeginRead());
        }
    });

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _stop.Dispose();
        await Harness.Stop();
        await _services.DisposeAsync();
    }
}
