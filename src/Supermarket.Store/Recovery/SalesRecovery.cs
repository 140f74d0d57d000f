using System.Data;
using System.Diagnostics;
using Dapper;
using Microsoft.Extensions.Options;
using MySql.Data.MySqlClient;
using Supermarket.Hosting.Database;
using Supermarket.Sales;

namespace Supermarket.Store.Recovery;

/// <summary>
/// Rebuilds the sales matrix from the Purchases writer's tables before the bus starts (it is registered before
/// MassTransit, and hosted services start in order), so the aggregator serves nothing half-built and only then
/// consumes what waited in its queue.
/// </summary>
/// <remarks>
/// The sums and the list of purchase ids are read in one consistent snapshot: a purchase is either in both (counted
/// here, skipped when its message arrives) or in neither (counted when its message arrives). Nothing counts twice.
/// </remarks>
public sealed class SalesRecovery(
    SalesMatrix matrix, RecoveredPurchases recovered, IOptions<DatabaseOptions> options, ILogger<SalesRecovery> logger)
    : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var watch = Stopwatch.StartNew();
        await using var connection = new MySqlConnection(options.Value.PooledConnectionString());
        await connection.OpenAsync(cancellationToken);
        await using var snapshot = await connection.BeginTransactionAsync(IsolationLevel.RepeatableRead, cancellationToken);
        await connection.ExecuteAsync("START TRANSACTION WITH CONSISTENT SNAPSHOT", transaction: snapshot);

        var ids = new HashSet<Guid>();
        foreach (var key in await connection.QueryAsync<byte[]>(
            new CommandDefinition("SELECT id FROM purchases", transaction: snapshot, cancellationToken: cancellationToken)))
        {
            ids.Add(PurchaseKeys.FromKey(key));
        }

        var cells = 0;
        var sums = await connection.QueryAsync<(int StoreId, int ItemId, decimal Units)>(new CommandDefinition(
            """
            SELECT p.store_id, i.item_id, SUM(i.quantity)
            FROM purchase_items i JOIN purchases p ON p.id = i.purchase_id
            GROUP BY p.store_id, i.item_id
            """,
            transaction: snapshot, cancellationToken: cancellationToken));
        foreach (var (storeId, itemId, units) in sums)
        {
            matrix.Record(storeId, itemId, (int)units);
            cells++;
        }

        await snapshot.CommitAsync(cancellationToken);
        recovered.Replace(ids);
        logger.LogInformation("Rebuilt the sales matrix from {Purchases} purchases ({Cells} cells) in {Elapsed} ms",
            ids.Count, cells, watch.ElapsedMilliseconds);
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
