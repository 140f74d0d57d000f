using System.Text;
using Dapper;
using MySqlConnector;
using Supermarket.Contracts.Purchases;
using Supermarket.Database.Ledger;
using Supermarket.Database.Purchases;

namespace Supermarket.Database.LoadTest;

/// <summary>
/// Stores purchases of the chain's past as the writer would have: the same rows (<see cref="PurchaseRows"/>), ids
/// (<see cref="PurchaseKeys"/>) and one sales ledger entry per transaction, appended as the writer appends it
/// (<see cref="SalesLedgerAppend"/>), so the aggregator and the history questions take them for real purchases. Only
/// the way in differs: LOAD DATA LOCAL INFILE of a tab-separated stream instead of the writer's JSON_TABLE statement,
/// and no check for purchases stored already (a filler stores each purchase once by construction; see
/// HistoryFill in the load test).
/// </summary>
public sealed class HistoryBulkLoad(string connectionString)
{
    private static readonly string[] Columns = ["@id", "store_id", "customer_id", "purchase_date", "received_at", "items"];

    private readonly string _connectionString =
        new MySqlConnectionStringBuilder(connectionString) { AllowLoadLocalInfile = true }.ConnectionString;

    /// <summary>The purchases of stores 1..<paramref name="stores"/> dated <paramref name="day"/> that a fill stored:
    /// a day of history is received on its own date (HistoryDay in the load test), where a purchase posted live and
    /// dated that day was received when it was posted, so a fill that goes on after a cut never counts those as its own.</summary>
    public async Task<long> CountFilledAsync(int stores, DateOnly day)
    {
        await using var connection = new MySqlConnection(_connectionString);
        var parameters = new DynamicParameters(StoredSales.RunParameters(stores, day));
        parameters.Add("next", day.AddDays(1).ToDateTime(TimeOnly.MinValue));
        return await connection.ExecuteScalarAsync<long>(
            $"SELECT COUNT(*) FROM {StoredSales.RunPurchases} AND received_at >= @date AND received_at < @next", parameters);
    }

    /// <summary>The purchases and their ledger entry, in one transaction: all of them, or none.</summary>
    public async Task StoreAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition("START TRANSACTION", cancellationToken: cancellationToken));
        try
        {
            var rows = new MySqlBulkLoader(connection)
            {
                TableName = "purchases",
                Local = true,
                SourceStream = new MemoryStream(Tsv(purchases)),
                FieldTerminator = "\t",
                LineTerminator = "\n",
                CharacterSet = "utf8mb4",
            };
            rows.Columns.AddRange(Columns);
            rows.Expressions.Add("id = UNHEX(@id)");
            var loaded = await rows.LoadAsync(cancellationToken);
            if (loaded != purchases.Count)
            {
                throw new InvalidOperationException($"LOAD DATA stored {loaded} of {purchases.Count} purchases.");
            }

            await connection.ExecuteAsync(new CommandDefinition(SalesLedgerAppend.Sql,
                new { purchases = purchases.Count, sales = PurchaseRows.SalesOf(purchases) }, cancellationToken: cancellationToken));
            await connection.ExecuteAsync(new CommandDefinition("COMMIT", cancellationToken: cancellationToken));
        }
        catch when (connection.State == System.Data.ConnectionState.Open)
        {
            // A broken connection needs none: the server rolls the transaction back as the connection ends, and a
            // ROLLBACK sent on it would hide the error that broke it.
            await connection.ExecuteAsync("ROLLBACK");
            throw;
        }
    }

    /// <summary>One line a purchase: the id's key bytes in hex, then the row's columns as the writer formats them
    /// (no field holds a tab or a newline: numbers, dates and the lines' JSON).</summary>
    private static byte[] Tsv(IReadOnlyList<PurchaseRecorded> purchases)
    {
        var text = new StringBuilder(purchases.Count * 160);
        foreach (var purchase in purchases)
        {
            text.Append(Convert.ToHexString(PurchaseKeys.ToKey(purchase.PurchaseId))).Append('\t')
                .Append(purchase.StoreId).Append('\t')
                .Append(purchase.CustomerId).Append('\t')
                .Append(PurchaseRows.Date(purchase)).Append('\t')
                .Append(PurchaseRows.ReceivedAt(purchase)).Append('\t')
                .Append(PurchaseRows.Items(purchase.Items)).Append('\n');
        }

        return Encoding.UTF8.GetBytes(text.ToString());
    }
}
