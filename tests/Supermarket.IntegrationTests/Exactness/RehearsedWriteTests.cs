using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Purchases;
using Supermarket.Database;
using Supermarket.Database.Purchases;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Exactness;

/// <summary>The writer's warm-up rehearses its transaction on the real database (PurchaseStoreWarmUp): every statement
/// run, then rolled back. It must leave no purchase and no ledger entry, and take no seq: the next entry follows the
/// last one, with no hole for the aggregators to wait at.</summary>
[Collection(nameof(SystemCollection))]
public sealed class RehearsedWriteTests(SupermarketSystem system)
{
    private const int Store = 479;

    [Fact]
    public async Task A_rehearsed_write_stores_nothing_and_the_next_entry_takes_the_next_seq()
    {
        // The running writer has migrated the schema.
        _ = system.WriterUrl;
        using var meters = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var store = new PurchaseStore(Options.Create(new DatabaseOptions
        {
            ConnectionString = TestSettings.DatabaseAt(),
            User = TestSettings.Accounts.DatabaseWriter.User,
            Password = TestSettings.Accounts.DatabaseWriter.Password,
        }), meters.GetRequiredService<IMeterFactory>(), NullLogger<PurchaseStore>.Instance);
        var cancellation = TestContext.Current.CancellationToken;
        PurchaseRecorded[] rehearsed = [.. Enumerable.Range(1, 60).Select(Purchase)];
        var stored = Purchase(61);
        // The collection's tests run one at a time: no other entry is appended meanwhile.
        var lastSeq = await TestDatabase.CountAsync("SELECT COALESCE(MAX(seq), 0) FROM sales_ledger");

        await store.RehearseAsync(rehearsed, cancellation);
        await store.WriteAsync([stored], cancellation);

        foreach (var purchase in rehearsed)
        {
            Assert.Equal(0, await TestDatabase.CountPurchasesAsync(purchase.PurchaseId));
        }

        Assert.Equal(1, await TestDatabase.CountPurchasesAsync(stored.PurchaseId));
        Assert.Equal(lastSeq + 1, await TestDatabase.CountAsync("SELECT MAX(seq) FROM sales_ledger"));
        Assert.Equal(1, await TestDatabase.CountAsync($"SELECT COUNT(*) FROM sales_ledger WHERE seq > {lastSeq}"));
    }

    private static PurchaseRecorded Purchase(int customer) =>
        new(Guid.CreateVersion7(), Store, (Store * 1000) + customer, new DateOnly(2021, 3, 9), [new PurchaseLine(48_700, customer)], DateTimeOffset.UtcNow);
}
