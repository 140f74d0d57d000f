using MassTransit;
using MassTransit.Testing;
using Supermarket.Contracts.Purchases;
using Supermarket.Messaging;
using Supermarket.PurchasesWriter.Recording;

namespace Supermarket.PurchasesWriter.Tests.Recording;

/// <summary>How the writer takes the API's groups off its queue: several to a transaction, what MySQL refuses set aside
/// alone, a database away waited out.</summary>
public sealed class PurchaseBatchRecordedConsumerTests
{
    [Fact]
    public async Task The_groups_waiting_are_stored_in_one_transaction_each_purchase_once()
    {
        var purchases = new PurchasesInMemory();
        // A time limit no test waits for: the batch closes on its message limit.
        await using var writer = await WriterHarness.StartAsync(purchases,
            writer: new WriterOptions { GroupsPerTransaction = 3, BatchTimeLimit = TimeSpan.FromSeconds(10) });
        PurchaseBatchRecorded[] groups = [Group(2), Group(3), Group(1)];

        foreach (var group in groups)
        {
            await writer.Bus.Bus.Publish(group);
        }

        await Eventually(() => purchases.Stored.Count == 6);
        var write = Assert.Single(purchases.Writes);
        Assert.Equal(groups.SelectMany(g => g.Purchases).Select(p => p.PurchaseId).Order(), write.Order());
    }

    [Fact]
    public async Task A_purchase_MySQL_refuses_is_set_aside_alone_and_the_rest_of_its_transaction_is_stored()
    {
        var purchases = new PurchasesInMemory();
        await using var writer = await WriterHarness.StartAsync(purchases);
        var group = Group(3);
        var refused = group.Purchases[1];
        purchases.Refuse(refused.PurchaseId);

        await writer.Bus.Bus.Publish(group);

        // The purchase after the refused one is stored after it was set aside.
        await Eventually(() => purchases.Stored.Count == 2);
        var setAside = Assert.Single(writer.Bus.Sent.Select<PurchaseBatchRecorded>()).Context;
        Assert.EndsWith(Topology.UnstorablePurchasesQueue, setAside.DestinationAddress!.AbsolutePath, StringComparison.Ordinal);
        Assert.Equal([refused.PurchaseId], setAside.Message.Purchases.Select(p => p.PurchaseId));
        Assert.Equal(new[] { group.Purchases[0].PurchaseId, group.Purchases[2].PurchaseId }.Order(), purchases.Stored.Select(p => p.PurchaseId).Order());
        Assert.False(writer.Database.IsAway);
    }

    [Fact]
    public async Task A_transaction_that_fails_while_the_database_is_away_is_retried_until_it_is_back()
    {
        var purchases = new PurchasesInMemory();
        purchases.BeAwayFor(writes: 3);
        await using var writer = await WriterHarness.StartAsync(purchases);
        var group = Group(2);

        await writer.Bus.Bus.Publish(group);

        await Eventually(() => purchases.Stored.Count == 2);
        Assert.Equal(4, purchases.Writes.Count);
        Assert.False(writer.Database.IsAway);
        Assert.False(await writer.Bus.Published.Any<Fault<PurchaseBatchRecorded>>());
    }

    private static PurchaseBatchRecorded Group(int purchases) => new([.. Enumerable.Range(1, purchases).Select(store =>
        new PurchaseRecorded(Guid.CreateVersion7(), store, store * 1000, new DateOnly(2021, 1, 1), [new PurchaseLine(7, 2)], DateTimeOffset.UtcNow))]);

    /// <summary>Waits for the consumer's work (its retries take a few hundred milliseconds): at most 30 s, which fails
    /// the test with a cancellation, far beyond what the work takes.</summary>
    private static async Task Eventually(Func<bool> condition)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        while (!condition())
        {
            await Task.Delay(20, timeout.Token);
        }
    }
}
