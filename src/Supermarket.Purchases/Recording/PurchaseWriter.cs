using System.Text;
using Dapper;
using MassTransit;
using Microsoft.Extensions.Options;
using MySql.Data.MySqlClient;
using Supermarket.Contracts.Purchases;
using Supermarket.Hosting.Database;

namespace Supermarket.Purchases.Recording;

/// <summary>
/// Writes purchases with one multi-row INSERT per table in one transaction. A purchase already stored (a redelivery)
/// is left as it is: its id is the primary key, and its lines are keyed by (purchase, line number).
/// </summary>
public sealed class PurchaseWriter(IOptions<DatabaseOptions> options, ILogger<PurchaseWriter> logger)
{
    private readonly string _connectionString = options.Value.PooledConnectionString();

    /// <summary>Writes the purchases of one consumed message (or MassTransit batch); on failure logs every id, so a
    /// batch that ends in the error queue can be traced, and rethrows for MassTransit's retry.</summary>
    public async Task WriteAsync(IReadOnlyList<PurchaseRecorded> purchases, ConsumeContext context)
    {
        try
        {
            await WriteAsync(purchases, context.CancellationToken);
        }
        catch (Exception exception) when (exception is not OperationCanceledException)
        {
            logger.LogWarning(exception, "Writing a batch of {Count} purchases failed (attempt {Attempt}): {PurchaseIds}",
                purchases.Count, context.GetRetryAttempt() + 1, string.Join(",", purchases.Select(p => p.PurchaseId)));
            throw;
        }
    }

    public async Task WriteAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken)
    {
        if (purchases.Count == 0)
        {
            return;
        }

        var (sql, parameters) = BuildInsert(purchases);
        await using var connection = new MySqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(sql, parameters, transaction, cancellationToken: cancellationToken));
        await transaction.CommitAsync(cancellationToken);
    }

    internal static (string Sql, DynamicParameters Parameters) BuildInsert(IReadOnlyList<PurchaseRecorded> purchases)
    {
        var sql = new StringBuilder("INSERT INTO purchases (id, store_id, customer_id, purchase_date, received_at) VALUES ");
        var items = new StringBuilder("INSERT INTO purchase_items (purchase_id, line_no, item_id, quantity) VALUES ");
        var parameters = new DynamicParameters();
        var lineParameter = 0;
        for (var p = 0; p < purchases.Count; p++)
        {
            var purchase = purchases[p];
            var key = PurchaseKeys.ToKey(purchase.PurchaseId);
            sql.Append(p == 0 ? "" : ",").Append($"(@id{p},@store{p},@customer{p},@date{p},@received{p})");
            parameters.Add($"id{p}", key);
            parameters.Add($"store{p}", purchase.StoreId);
            parameters.Add($"customer{p}", purchase.CustomerId);
            parameters.Add($"date{p}", purchase.Date.ToDateTime(TimeOnly.MinValue));
            parameters.Add($"received{p}", purchase.ReceivedAt.UtcDateTime);
            for (var line = 0; line < purchase.Items.Length; line++, lineParameter++)
            {
                var l = lineParameter;
                items.Append(l == 0 ? "" : ",").Append($"(@id{p},{line},@item{l},@quantity{l})");
                parameters.Add($"item{l}", purchase.Items[line].ItemId);
                parameters.Add($"quantity{l}", purchase.Items[line].Quantity);
            }
        }

        // ON DUPLICATE KEY rather than INSERT IGNORE: only a repeated key is skipped; any other problem still fails.
        sql.Append(" ON DUPLICATE KEY UPDATE id = id;");
        if (lineParameter > 0)
        {
            sql.Append(items).Append(" ON DUPLICATE KEY UPDATE purchase_id = purchase_id;");
        }

        return (sql.ToString(), parameters);
    }
}
