extern alias AppHost;

using AppHost::Supermarket.AppHost.Operations;
using Supermarket.Contracts.Purchases;
using Supermarket.IntegrationTests.Infrastructure;
using Supermarket.Messaging;

namespace Supermarket.IntegrationTests.Recovery;

/// <summary>A purchase MySQL refuses as it is (here a trigger stands in for a constraint the data breaks) must not
/// take its batch-mates with it: they are stored and counted, it alone goes aside, visibly, and a documented command
/// replays it once the cause is fixed.</summary>
[Collection(nameof(SystemCollection))]
public sealed class UnstorablePurchaseTests(SupermarketSystem system)
{
    private const int RefusedStore = 485, OtherStore = 484, Item = 48_485;

    [Fact]
    public async Task A_purchase_MySQL_refuses_goes_aside_alone_and_is_stored_once_replayed_after_the_cause_is_fixed()
    {
        var aside = Topology.UnstorablePurchasesQueue;
        var errors = Topology.PurchasesWriterQueue + "_error";
        var (asideBefore, errorsBefore) = (await BrokerAdministrator.MessagesAsync(aside), await BrokerAdministrator.MessagesAsync(errors));
        await TestDatabase.ExecuteAsOwnerAsync($"""
            CREATE TRIGGER refuse_store_{RefusedStore} BEFORE INSERT ON purchases FOR EACH ROW
            IF NEW.store_id = {RefusedStore} THEN SIGNAL SQLSTATE '22003' SET MESSAGE_TEXT = 'store {RefusedStore} refused by the test'; END IF
            """);
        PurchaseRecorded refused;
        PurchaseRecorded[] others;
        try
        {
            // One message, as the API's group commit makes them: four stores' purchases around the refused one.
            refused = Purchase(RefusedStore, 485_001, 7);
            others = [.. Enumerable.Range(1, 4).Select(customer => Purchase(OtherStore, 484_000 + customer, customer))];
            await system.Bus.Publish(new PurchaseBatchRecorded([others[0], others[1], refused, others[2], others[3]]));

            await TestDatabase.AssertEachStoredOnceAsync([.. others.Select(p => p.PurchaseId)], TimeSpan.FromSeconds(60));
            (int, long)[] counted = [(Item, 1 + 2 + 3 + 4)];
            Assert.Equal(counted, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, OtherStore), got => got.SequenceEqual(counted)));
            Assert.Equal(asideBefore + 1, await Eventually.UntilAsync(() => BrokerAdministrator.MessagesAsync(aside), count => count > asideBefore));
            Assert.Equal(0, await TestDatabase.CountPurchasesAsync(refused.PurchaseId));
            Assert.Equal(errorsBefore, await BrokerAdministrator.MessagesAsync(errors));
            using var writer = new HttpClient { BaseAddress = system.WriterUrl };
            Assert.Matches(@"(?m)^supermarket_writer_purchases_set_aside_total\{[^}]*\} [1-9]", await writer.GetStringAsync("/metrics"));
        }
        finally
        {
            await TestDatabase.ExecuteAsOwnerAsync($"DROP TRIGGER IF EXISTS refuse_store_{RefusedStore}");
        }

        // The cause fixed, the writer's replay command (here on the tests' vhost) puts it back on the writer's path:
        // stored and counted once.
        var replay = new UnstorablePurchasesReplay(TestSettings.BrokerPort, TestSettings.ManagementPort, TestSettings.Accounts.BrokerAdmin);
        Assert.Equal(1u, await replay.ReplayAsync(TestSettings.VirtualHost, CancellationToken.None));
        await TestDatabase.AssertEachStoredOnceAsync([refused.PurchaseId], TimeSpan.FromSeconds(60));
        (int, long)[] expected = [(Item, 7)];
        Assert.Equal(expected, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, RefusedStore), got => got.SequenceEqual(expected)));
        Assert.Equal(expected, await TestDatabase.TopItemsAsync(RefusedStore));
        Assert.Equal(0u, await BrokerAdministrator.MessagesAsync(aside));
    }

    private static PurchaseRecorded Purchase(int store, int customer, int quantity) =>
        new(Guid.CreateVersion7(), store, customer, new DateOnly(2021, 3, 5), [new PurchaseLine(Item, quantity)], DateTimeOffset.UtcNow);
}
