using System.Text.Json;
using MassTransit.Serialization;
using Supermarket.Contracts.History;
using Supermarket.Contracts.Purchases;
using Supermarket.Database.History;
using Supermarket.Database.Purchases;
using Supermarket.ServiceDefaults.WarmUp;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>Rehearses the writer's work before it says ready (docs/architecture.md, "A warm start").</summary>
public sealed class PurchaseStoreWarmUp(IPurchaseStore store, IPurchaseHistory history) : IStartupWarmUp
{
    private const int Rounds = 40;
    private const int GroupPurchases = 60;
    private static readonly DateOnly Day = new(2020, 1, 1);

    public async Task RunAsync(CancellationToken cancellation)
    {
        for (var round = 0; round < Rounds; round++)
        {
            var group = new PurchaseBatchRecorded([.. Enumerable.Range(1, GroupPurchases).Select(purchase =>
                new PurchaseRecorded(Guid.CreateVersion7(), 1, 1000 + purchase, Day, [new PurchaseLine(purchase, 1), new PurchaseLine(purchase + 1, 2)], DateTimeOffset.UtcNow))]);
            var message = JsonSerializer.SerializeToUtf8Bytes(group, SystemTextJsonMessageSerializer.Options);
            var read = JsonSerializer.Deserialize<PurchaseBatchRecorded>(message, SystemTextJsonMessageSerializer.Options)!;
            await store.RehearseAsync(read.Purchases, cancellation);
            await history.AtStoreAsync(new PurchasesAtStore(1, Day, null, PageSize: 50), cancellation);
            await history.OfCustomerAsync(new PurchasesOfCustomer(1001, null, null, null, PageSize: 50), cancellation);
        }
    }
}
