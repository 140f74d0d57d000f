using Supermarket.Contracts.Purchases;
using Supermarket.Database.Ledger;
using Supermarket.IntegrationTests.Infrastructure;
using Supermarket.Messaging;

namespace Supermarket.IntegrationTests.Exactness;

/// <summary>
/// The writer's own bookkeeping (<c>ledger_head</c>, the sales ledger's next seq) can fall behind the ledger: a
/// partial restore, a hand edit, an older writer that still took seqs from AUTO_INCREMENT. A purchase must never pay
/// for that. The writer repairs the head from the ledger and stores every purchase; nothing is set aside. (Before the
/// repair, the duplicate seq was taken for "this purchase is stored", then rethrown as SQLSTATE 23000 and every
/// purchase of every later batch went to the unstorable queue while the writer stayed ready.)
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class LedgerBookkeepingTests(SupermarketSystem system)
{
    private const int Item = 48_600;

    [Theory]
    [InlineData(471, "UPDATE ledger_head SET last_seq = last_seq - LEAST(last_seq, 3) WHERE id = 1")]
    [InlineData(472, "DELETE FROM ledger_head")]
    public async Task A_ledger_head_behind_the_ledger_is_repaired_and_no_purchase_is_set_aside(int store, string damage)
    {
        // At least three entries, so a head set back three seqs collides with one. Stored before the damage (a 201 is
        // the broker's): set back before they were, the head may have nothing to collide with (failed 2 of 4 runs).
        var first = new List<Guid>();
        for (var i = 0; i < 3; i++)
        {
            first.Add(await Purchases.RecordAsync(system.Api, store, 471_000 + i, "20210304", (Item, 1)));
        }

        await TestDatabase.AssertEachStoredOnceAsync([.. first], TimeSpan.FromSeconds(60));

        var aside = await BrokerAdministrator.MessagesAsync(Topology.UnstorablePurchasesQueue);
        await TestDatabase.ExecuteAsync(damage);

        PurchaseRecorded[] purchases = [.. Enumerable.Range(1, 4).Select(customer =>
            new PurchaseRecorded(Guid.CreateVersion7(), store, 471_100 + customer, new DateOnly(2021, 3, 4), [new PurchaseLine(Item, customer)], DateTimeOffset.UtcNow))];
        await system.Bus.Publish(new PurchaseBatchRecorded(purchases));

        await TestDatabase.AssertEachStoredOnceAsync([.. purchases.Select(p => p.PurchaseId)], TimeSpan.FromSeconds(60));
        (int, long)[] counted = [(Item, 3 + 1 + 2 + 3 + 4)];
        Assert.Equal(counted, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, store), got => got.SequenceEqual(counted)));
        Assert.Equal(aside, await BrokerAdministrator.MessagesAsync(Topology.UnstorablePurchasesQueue));
        Assert.Equal(await TestDatabase.CountAsync("SELECT MAX(seq) FROM sales_ledger"), await TestDatabase.CountAsync("SELECT last_seq FROM ledger_head WHERE id = 1"));
        using var writer = new HttpClient { BaseAddress = system.WriterUrl };
        Assert.Matches(@"(?m)^supermarket_writer_ledger_head_repairs_total\{[^}]*\} [1-9]", await writer.GetStringAsync("/metrics"));
    }

    [Fact]
    public async Task A_head_behind_a_ledger_with_a_hole_above_it_is_repaired_to_the_hole_which_the_next_entries_fill()
    {
        const int store = 477;
        var first = new List<Guid>();
        for (var i = 0; i < 3; i++)
        {
            first.Add(await Purchases.RecordAsync(system.Api, store, 477_000 + i, "20210304", (Item, 1)));
        }

        // A 201 is the broker's: the ledger is read once they are stored, so no append races the hand-made entry.
        await TestDatabase.AssertEachStoredOnceAsync([.. first], TimeSpan.FromSeconds(60));

        // Entries up to last, none at last + 1..last + 3, one at last + 4 (a partial restore, a hand edit), and the head
        // three behind: the next append collides at last - 2.
        var last = await TestDatabase.CountAsync("SELECT MAX(seq) FROM sales_ledger");
        await TestDatabase.ExecuteAsync(
            $"INSERT INTO sales_ledger (seq, stored_at, purchases, sales) VALUES ({last + 4}, UTC_TIMESTAMP(6), 0, x'{Convert.ToHexString(SalesLedgerEntry.Encode([]))}')");
        await TestDatabase.ExecuteAsync("UPDATE ledger_head SET last_seq = last_seq - 3 WHERE id = 1");

        // One transaction each: the first is repaired to last and takes last + 1, the next fill the hole, the fourth
        // meets last + 4 and is repaired past it.
        var quantities = Enumerable.Range(1, 5).ToArray();
        foreach (var quantity in quantities)
        {
            var id = await Purchases.RecordAsync(system.Api, store, 477_100 + quantity, "20210304", (Item, quantity));
            await TestDatabase.AssertEachStoredOnceAsync([id], TimeSpan.FromSeconds(60));
        }

        // Counted only if the aggregator read on past the hole: had the repair jumped to last + 4, seqs last + 1..last + 3
        // would never be written and it would wait at last + 2 for good.
        (int, long)[] counted = [(Item, 3 + quantities.Sum())];
        Assert.Equal(counted, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, store), got => got.SequenceEqual(counted)));
        Assert.Equal(0, await TestDatabase.CountAsync(
            "SELECT COUNT(*) FROM sales_ledger l WHERE l.seq > @last AND l.seq < (SELECT MAX(seq) FROM sales_ledger) AND NOT EXISTS (SELECT 1 FROM sales_ledger n WHERE n.seq = l.seq + 1)",
            new { last }));
    }

    [Fact]
    public async Task A_head_ahead_of_the_ledger_leaves_no_hole_and_the_next_purchase_is_counted()
    {
        const int store = 478;
        var first = await Purchases.RecordAsync(system.Api, store, 478_000, "20210304", (Item, 1));
        await TestDatabase.AssertEachStoredOnceAsync([first], TimeSpan.FromSeconds(60));

        // What a restore of sales_ledger alone leaves: the head still at the seq the lost entries reached.
        var last = await TestDatabase.CountAsync("SELECT MAX(seq) FROM sales_ledger");
        await TestDatabase.ExecuteAsync("UPDATE ledger_head SET last_seq = last_seq + 5 WHERE id = 1");

        var next = await Purchases.RecordAsync(system.Api, store, 478_001, "20210304", (Item, 2));
        await TestDatabase.AssertEachStoredOnceAsync([next], TimeSpan.FromSeconds(60));

        // Counted only if its entry follows on from the last: above a hole, every aggregator would wait at it for good.
        (int, long)[] counted = [(Item, 1 + 2)];
        Assert.Equal(counted, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, store), got => got.SequenceEqual(counted)));
        Assert.Equal(counted, await TestDatabase.TopItemsAsync(store));
        Assert.Equal(last + 1, await TestDatabase.CountAsync("SELECT MAX(seq) FROM sales_ledger"));
        Assert.Equal(last + 1, await TestDatabase.CountAsync("SELECT last_seq FROM ledger_head WHERE id = 1"));
    }

    [Fact]
    public async Task The_ledger_takes_no_seq_from_AUTO_INCREMENT_so_an_older_writer_cannot_take_one_beside_the_head()
    {
        var table = await TestDatabase.QuerySingleAsync<(string, string)>("SHOW CREATE TABLE sales_ledger");

        Assert.DoesNotContain("AUTO_INCREMENT", table.Item2, StringComparison.OrdinalIgnoreCase);
        // What a writer from before migration 0004 sends: refused, so it fails (and retries) instead of taking a seq.
        var refused = await Assert.ThrowsAsync<MySqlConnector.MySqlException>(() => TestDatabase.ExecuteAsync(
            "INSERT INTO sales_ledger (stored_at, purchases, sales) VALUES (UTC_TIMESTAMP(6), 0, '')"));
        Assert.Equal(MySqlConnector.MySqlErrorCode.NoDefaultForField, refused.ErrorCode);
    }
}
