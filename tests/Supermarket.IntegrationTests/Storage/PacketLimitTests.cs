using MySqlConnector;
using Supermarket.Contracts.Purchases;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Storage;

/// <summary>
/// A transaction larger than MariaDB's max_allowed_packet is refused whole, however often it is retried: the writer
/// stores it in smaller transactions instead (each purchase still in exactly one ledger entry). Before, the batch
/// waited in its retries forever and the writer took nothing more.
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class PacketLimitTests(SupermarketSystem system, TestedAppHost appHost)
{
    private const int Store = 473, Item = 99_473;
    private const int SmallPacket = 256 * 1024;

    [Fact]
    public async Task A_batch_larger_than_max_allowed_packet_is_stored_in_smaller_transactions()
    {
        var original = await TestDatabase.QuerySingleAsync<long>("SELECT @@global.max_allowed_packet");
        await SetMaxAllowedPacketAsync(SmallPacket);
        try
        {
            // Connections take the limit when they open.
            await MySqlConnection.ClearAllPoolsAsync();
            PurchaseRecorded[] purchases = [.. Enumerable.Range(1, 400).Select(customer => new PurchaseRecorded(Guid.CreateVersion7(), Store, 473_000 + customer,
                new DateOnly(2021, 3, 6), [.. Enumerable.Range(0, 100).Select(_ => new PurchaseLine(Item, 9_999))], DateTimeOffset.UtcNow))];

            await system.Bus.Publish(new PurchaseBatchRecorded(purchases));

            await TestDatabase.AssertEachStoredOnceAsync([.. purchases.Select(p => p.PurchaseId)], TimeSpan.FromSeconds(60));
            (int, long)[] counted = [(Item, 400L * 100 * 9_999)];
            Assert.Equal(counted, await Eventually.UntilAsync(() => InsightAnswers.TopItemsAsync(system.Api, Store), got => got.SequenceEqual(counted)));
        }
        finally
        {
            await SetMaxAllowedPacketAsync(original);
            await MySqlConnection.ClearAllPoolsAsync();
        }
    }

    /// <summary>As the database's operator: root over the server's own socket.</summary>
    private Task SetMaxAllowedPacketAsync(long bytes) =>
        appHost.Faults.DatabaseAsync($"SET GLOBAL max_allowed_packet = {bytes}", CancellationToken.None);
}
