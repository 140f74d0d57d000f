extern alias StoreWorker;

using MassTransit;
using MassTransit.Testing;
using Microsoft.Extensions.DependencyInjection;
using StoreWorker::Supermarket.Store.Recovery;
using StoreWorker::Supermarket.Store.Sales;
using Supermarket.Contracts.Purchases;
using Supermarket.Contracts.Sales;
using Supermarket.Sales;

namespace Supermarket.UnitTests.Store;

/// <summary>The aggregator's consumers' logic, on MassTransit's in-memory harness (the broker is not under test here).</summary>
public sealed class SalesCounterTests
{
    [Fact]
    public async Task A_stored_purchase_counts_once_whether_the_rebuild_or_an_earlier_announcement_counted_it()
    {
        var matrix = new SalesMatrix(100, 10);
        var counted = new CountedPurchases(capacity: 1_000);
        var alreadyCounted = Guid.CreateVersion7();
        counted.TryAdd(alreadyCounted);
        counted.Complete();
        await using var provider = new ServiceCollection()
            .AddSingleton(matrix)
            .AddSingleton(counted)
            .AddMetrics()
            .AddSingleton<SalesMetrics>()
            .AddMassTransitTestHarness(bus =>
            {
                // Generous: the suite runs beside the integration tests on two cores, and the harness's default
                // inactivity timeout (about a second) then ends a wait before a slow but correct consumer is done.
                bus.SetTestTimeouts(testTimeout: TimeSpan.FromSeconds(60), testInactivityTimeout: TimeSpan.FromSeconds(20));
                bus.AddConsumer<SalesCounter>();
                bus.AddConsumer<SalesQueries>();
            })
            .BuildServiceProvider(true);
        var harness = provider.GetRequiredService<ITestHarness>();
        await harness.Start();

        var consumer = harness.GetConsumerHarness<SalesCounter>();
        var first = new PurchasesStored(
        [
            Purchase(alreadyCounted, store: 3, (7, 5)),
            Purchase(Guid.CreateVersion7(), store: 3, (7, 2), (8, 4)),
            Purchase(Guid.CreateVersion7(), store: 4, (7, 1)),
        ]);
        // The writer retried a batch: the same purchases announced again, with a new one.
        var again = new PurchasesStored([first.Purchases[1], Purchase(Guid.CreateVersion7(), store: 5, (7, 6))]);
        foreach (var stored in new[] { first, again })
        {
            await harness.Bus.Publish(stored);
            Assert.True(await consumer.Consumed.Any<PurchasesStored>(m => m.Context.Message.Purchases[^1].PurchaseId == stored.Purchases[^1].PurchaseId));
        }

        var items = await harness.GetRequestClient<TopItemsForStore>().GetResponse<TopItemsAtStore>(new TopItemsForStore(3, 10));
        Assert.Equal([new ItemSales(8, 4), new ItemSales(7, 2)], items.Message.Items);
        var stores = await harness.GetRequestClient<TopStoresForItem>().GetResponse<TopStoresOfItem>(new TopStoresForItem(7, 5));
        Assert.Equal([new StoreSales(5, 6), new StoreSales(3, 2), new StoreSales(4, 1)], stores.Message.Stores);
    }

    private static PurchaseRecorded Purchase(Guid id, int store, params (int Item, int Quantity)[] lines) =>
        new(id, store, store * 1000, new DateOnly(2021, 1, 1), [.. lines.Select(l => new PurchaseLine(l.Item, l.Quantity))], DateTimeOffset.UtcNow);
}
