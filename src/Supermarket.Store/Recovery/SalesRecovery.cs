using System.Data;
using System.Diagnostics;
using Dapper;
using Microsoft.Extensions.Options;
using MySql.Data.MySqlClient;
using Supermarket.Hosting.Database;
using Supermarket.Sales;

namespace Supermarket.Store.Recovery;

/// <summary>
/// Rebuilds the sales matrix from the Purchases writer's tables at start, while the consumers wait for it.
/// </summary>
/// <remarks>
/// It runs after the bus has started (it is registered after MassTransit, hosted services start in order, and the bus
/// waits until started), so the aggregator's queue is bound to the writer's stored-purchases exchange before the
/// snapshot is taken. The writer announces a purchase only after committing it, so every stored purchase is in the
/// snapshot, or in the queue, or both; everything a previous aggregator counted is in the snapshot. The sums and the
/// ids they include are read in one consistent snapshot, and the ids go into <see cref="CountedPurchases"/>, so a
/// purchase in both is counted once.
/// </remarks>
public sealed class SalesRecovery(
    SalesMatrix matrix, CountedPurchases counted, IOptions<DatabaseOptions> options, ILogger<SalesRecovery> logger)
    : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var watch = Stopwatch.StartNew();
        // A rebuild reads every line ever stored; the default 30 s command timeout is for ordinary statements.
        var connectionString = new MySqlConnectionStringBuilder(options.Value.PooledConnectionString()) { DefaultCommandTimeout = 3600 };
        await using var connection = new MySqlConnection(connectionString.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        await using var snapshot = await connection.BeginTransactionAsync(IsolationLevel.RepeatableRead, cancellationToken);
        await connection.ExecuteAsync("START TRANSACTION WITH CONSISTENT SNAPSHOT", transaction: snapshot);

        // Both reads stream (unbuffered) and sum here rather than in a GROUP BY: a day of the seeds' A3 load is
        // 3.5 million lines, which MariaDB would otherwise gather into a temporary table first.
        // Oldest first, so the newest are the ones CountedPurchases remembers when the history outgrows it.
        long purchases = 0;
        await foreach (var key in connection.QueryUnbufferedAsync<byte[]>("SELECT id FROM purchases ORDER BY id", transaction: snapshot)
            .WithCancellation(cancellationToken))
        {
            counted.TryAdd(PurchaseKeys.FromKey(key));
            purchases++;
        }

        long lines = 0;
        await foreach (var (storeId, itemId, quantity) in connection.QueryUnbufferedAsync<(int, int, int)>(
            "SELECT p.store_id, i.item_id, i.quantity FROM purchase_items i JOIN purchases p ON p.id = i.purchase_id",
            transaction: snapshot).WithCancellation(cancellationToken))
        {
            matrix.Record(storeId, itemId, quantity);
            lines++;
        }

        await snapshot.CommitAsync(cancellationToken);
        counted.Complete();
        logger.LogInformation("Rebuilt the sales matrix from {Purchases} purchases ({Lines} lines) in {Elapsed} ms",
            purchases, lines, watch.ElapsedMilliseconds);
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
