using MassTransit;
using MassTransit.Testing;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.Contracts.Sales;
using Supermarket.SalesAggregator.Questions;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Tests.Questions;

/// <summary>The aggregator's answers, on MassTransit's in-memory test harness: request/response as the API asks.</summary>
public sealed class SalesQuestionsConsumerTests : IAsyncLifetime
{
    private readonly SalesMatrix _matrix = new(maxItemId: 50, maxStores: 8);
    private readonly MatrixReadiness _readiness = new();
    private ServiceProvider _services = null!;

    private ITestHarness Harness => _services.GetRequiredService<ITestHarness>();

    public async ValueTask InitializeAsync()
    {
        _services = new ServiceCollection()
            .AddMetrics()
            .AddSingleton(_matrix)
            .AddSingleton(_readiness)
            .AddSingleton<SalesMetrics>()
            .AddMassTransitTestHarness(bus => bus.AddConsumer<SalesQuestionsConsumer, SalesQuestionsConsumerDefinition>())
            .BuildServiceProvider(validateScopes: true);
        await Harness.Start();
    }

    [Fact]
    public async Task The_top_items_at_a_store_come_from_the_matrix_best_first_with_how_far_it_counted()
    {
        _matrix.Record(storeId: 3, itemId: 7, quantity: 5);
        _matrix.Record(storeId: 3, itemId: 9, quantity: 8);
        _matrix.Record(storeId: 4, itemId: 7, quantity: 100);
        _readiness.CountedUpTo(42);
        _readiness.Complete(fromCheckpoint: false, entriesRead: 1);

        var answer = await Harness.GetRequestClient<TopItemsForStore>().GetResponse<TopItemsAtStore>(new TopItemsForStore(3, 10));

        Assert.Equal([new ItemSales(9, 8), new ItemSales(7, 5)], answer.Message.Items);
        Assert.Equal(42, answer.Message.CountedThrough);
    }

    [Fact]
    public async Task The_top_stores_for_an_item_come_from_the_matrix_and_an_unknown_item_has_none()
    {
        _matrix.Record(storeId: 2, itemId: 7, quantity: 5);
        _matrix.Record(storeId: 6, itemId: 7, quantity: 6);
        _readiness.Complete(fromCheckpoint: false, entriesRead: 0);
        var client = Harness.GetRequestClient<TopStoresForItem>();

        var answer = await client.GetResponse<TopStoresOfItem>(new TopStoresForItem(7, 1));
        var unknown = await client.GetResponse<TopStoresOfItem>(new TopStoresForItem(51, 5));

        Assert.Equal([new StoreSales(6, 6)], answer.Message.Stores);
        Assert.Empty(unknown.Message.Stores);
    }

    [Fact]
    public async Task A_question_asked_before_the_matrix_caught_up_waits_for_it()
    {
        _matrix.Record(storeId: 1, itemId: 1, quantity: 1);
        var asked = Harness.GetRequestClient<TopItemsForStore>().GetResponse<TopItemsAtStore>(new TopItemsForStore(1, 1));

        // Half a second is ample for the in-memory bus to answer; an answer in it came from a half-built matrix.
        await Task.WhenAny(asked, Task.Delay(TimeSpan.FromMilliseconds(500)));
        Assert.False(asked.IsCompleted);
        _readiness.Complete(fromCheckpoint: true, entriesRead: 0);

        Assert.Equal([new ItemSales(1, 1)], (await asked).Message.Items);
    }

    public async ValueTask DisposeAsync()
    {
        await Harness.Stop();
        await _services.DisposeAsync();
    }
}
