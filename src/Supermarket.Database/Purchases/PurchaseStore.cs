using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Dapper;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.Purchases;
using Supermarket.Database.Ledger;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.Database.Purchases;

/// <summary>Purchases and their ledger entry in one transaction, one command; the entry takes its seq last.</summary>
/// <remarks>A purchase stored before adds neither a row nor ledger lines: the INSERT fails on its id, the transaction
/// rolls back and the rest is stored, so each stored purchase is in exactly one entry. A duplicate no stored purchase
/// explains is the ledger's head behind the ledger: repaired, never the purchases' fault.</remarks>
public sealed class PurchaseStore(IOptions<DatabaseOptions> options, IMeterFactory meters, ILogger<PurchaseStore> logger) : IPurchaseStore
{
    private readonly Counter<long> _headRepairs = meters.Create(TelemetryRegistration.MeterName).CreateCounter<long>(
        "supermarket.writer.ledger_head.repairs", "{repair}", "Times the sales ledger's head was found behind the ledger and derived from it again");

    private const int DuplicateKey = 1062;
    private const int MaxDuplicateRounds = 5;

    private static string StoreSql(int count, TransactionEnd end)
    {
        var sql = new StringBuilder(200 + (count * 48))
            .Append("BEGIN;\nINSERT INTO purchases (id, store_id, customer_id, purchase_date, received_at, items) VALUES ");
        for (var row = 0; row < count; row++)
        {
            sql.Append(CultureInfo.InvariantCulture, $"{(row == 0 ? "" : ",")}(@i{row},@s{row},@c{row},@d{row},@r{row},@l{row})");
        }

        return sql.Append(";\n").Append(SalesLedgerAppend.Sql).Append(end == TransactionEnd.Commit ? "COMMIT;" : "ROLLBACK;").ToString();
    }

    private enum TransactionEnd
    {
        Commit,
        RollBack,
    }

    private static void AddRow(MySqlParameterCollection parameters, int row, PurchaseRecorded purchase)
    {
        parameters.AddWithValue(string.Create(CultureInfo.InvariantCulture, $"@i{row}"), PurchaseKeys.ToKey(purchase.PurchaseId));
        parameters.AddWithValue(string.Create(CultureInfo.InvariantCulture, $"@s{row}"), purchase.StoreId);
        parameters.AddWithValue(string.Create(CultureInfo.InvariantCulture, $"@c{row}"), purchase.CustomerId);
        parameters.AddWithValue(string.Create(CultureInfo.InvariantCulture, $"@d{row}"), PurchaseRows.Date(purchase));
        parameters.AddWithValue(string.Create(CultureInfo.InvariantCulture, $"@r{row}"), PurchaseRows.ReceivedAt(purchase));
        parameters.AddWithValue(string.Create(CultureInfo.InvariantCulture, $"@l{row}"), PurchaseRows.Items(purchase.Items));
    }

    private static async Task StoreAsync(MySqlConnection connection, IReadOnlyList<PurchaseRecorded> purchases, TransactionEnd end, CancellationToken cancellationToken)
    {
        await using var command = new MySqlCommand(StoreSql(purchases.Count, end), connection);
        for (var row = 0; row < purchases.Count; row++)
        {
            AddRow(command.Parameters, row, purchases[row]);
        }

        command.Parameters.AddWithValue("@purchases", purchases.Count);
        command.Parameters.AddWithValue("@sales", PurchaseRows.SalesOf(purchases));
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    private const string StoredIdsSql = """
        SELECT p.id FROM JSON_TABLE(@ids, '$[*]' COLUMNS (id CHAR(32) PATH '$')) AS j JOIN purchases p ON p.id = UNHEX(j.id)
        """;

    private readonly string _connectionString = options.Value.PooledConnectionString();

    /// <inheritdoc />
    public async Task<int> WriteAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken)
    {
        // The same id twice in one batch (a keyed retry grouped with its first attempt) is one purchase.
        var pending = purchases.DistinctBy(p => p.PurchaseId).ToList();
        await using var connection = new MySqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        for (var round = 1; pending.Count > 0; round++)
        {
            try
            {
                await StoreAsync(connection, pending, TransactionEnd.Commit, cancellationToken);
                return pending.Count;
            }
            catch (Exception exception)
            {
                // Begun in the command text, so nothing else ends it: returned to the pool open, its first statements
                // would commit with the next BEGIN.
                await RollBackAsync(connection);
                if (exception is MySqlException { ErrorCode: MySqlErrorCode.PacketTooLarge } && pending.Count > 1)
                {
                    await connection.CloseAsync();
                    return await WriteInHalvesAsync(pending, cancellationToken);
                }

                if (exception is not MySqlException { Number: DuplicateKey })
                {
                    throw;
                }

                if (round == MaxDuplicateRounds)
                {
                    throw new SalesLedgerInconsistent($"A batch of {pending.Count} purchases met a duplicate key {round} times, with the stored purchases left out and the ledger's head not behind the ledger each time", exception);
                }
            }

            var stored = await StoredIdsAsync(connection, pending, cancellationToken);
            if (stored.Count == 0)
            {
                await RepairLedgerHeadAsync(connection, cancellationToken);
            }

            pending.RemoveAll(purchase => stored.Contains(purchase.PurchaseId));
        }

        return 0;
    }

    /// <inheritdoc />
    public async Task RehearseAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        try
        {
            await StoreAsync(connection, purchases, TransactionEnd.RollBack, cancellationToken);
        }
        catch (Exception)
        {
            await RollBackAsync(connection);
            throw;
        }
    }

    /// <summary>MariaDB refuses a command over max_allowed_packet however often it is sent: two transactions, each with
    /// its entry. A single purchase too large is the database's setting, retried as the database away.</summary>
    private async Task<int> WriteInHalvesAsync(List<PurchaseRecorded> purchases, CancellationToken cancellationToken)
    {
        logger.LogWarning("A transaction of {Count} purchases is larger than the database's max_allowed_packet; storing it in halves", purchases.Count);
        var half = purchases.Count / 2;
        return await WriteAsync(purchases[..half], cancellationToken) + await WriteAsync(purchases[half..], cancellationToken);
    }

    /// <summary>A head found not behind was repaired meanwhile by another writer: the batch is tried again.</summary>
    private async Task RepairLedgerHeadAsync(MySqlConnection connection, CancellationToken cancellationToken)
    {
        var (before, after) = await SalesLedgerAppend.RepairHeadAsync(connection, cancellationToken);
        if (before == after)
        {
            return;
        }

        _headRepairs.Add(1);
        logger.LogWarning("The sales ledger's head was {Before} while the ledger holds entries following on from it up to {After} (a partial restore, a hand edit or an older writer); it now says {After} and the batch is stored again",
            before < 0 ? "missing" : before, after, after);
    }

    private static async Task RollBackAsync(MySqlConnection connection)
    {
        try
        {
            await connection.ExecuteAsync("ROLLBACK");
        }
        catch (Exception) when (connection.State != System.Data.ConnectionState.Open)
        {
            // A broken connection: the server rolls the transaction back as it ends.
        }
    }

    private static async Task<HashSet<Guid>> StoredIdsAsync(MySqlConnection connection, List<PurchaseRecorded> purchases, CancellationToken cancellationToken)
    {
        var ids = JsonSerializer.Serialize(purchases.Select(p => Convert.ToHexString(PurchaseKeys.ToKey(p.PurchaseId))));
        var keys = await connection.QueryAsync<byte[]>(new CommandDefinition(StoredIdsSql, new { ids }, cancellationToken: cancellationToken));
        return [.. keys.Select(PurchaseKeys.FromKey)];
    }
}
