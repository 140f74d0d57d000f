using System.Buffers;
using System.Diagnostics.Metrics;
using System.Text;
using System.Text.Json;
using Dapper;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.Purchases;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.Database.Purchases;

/// <summary>
/// Stores purchases and their sales ledger entry in one transaction, sent as one multi-statement command (one round
/// trip instead of five); the entry takes its seq last, just before the commit (<see cref="SalesLedgerAppend"/>).
/// The purchases come from a single JSON parameter read with JSON_TABLE (MariaDB 10.6+,
/// MySQL 8), so the statement text is fixed whatever the batch size; each purchase's lines are one column of its row
/// (migration 0002).
/// </summary>
/// <remarks>
/// Exactly once: a purchase already stored (a redelivery, a writer's retry, a till's keyed retry an hour later) is
/// not stored again, and — what keeps the sales answers exact — its lines are not put in the ledger again. The plain
/// INSERT fails on a stored id; the transaction is then rolled back, the stored ids are looked up, and the rest is
/// stored. Duplicates are rare, so the common path stays one round trip. A duplicate that no stored purchase explains is
/// the ledger's head behind the ledger (<see cref="SalesLedgerAppend"/>): the head is repaired and the batch stored,
/// and a head that cannot be repaired fails the write as the database away, never as the purchases' fault.
/// </remarks>
public sealed class PurchaseStore(IOptions<DatabaseOptions> options, IMeterFactory meters, ILogger<PurchaseStore> logger) : IPurchaseStore
{
    private readonly Counter<long> _headRepairs = meters.Create(TelemetryRegistration.MeterName).CreateCounter<long>(
        "supermarket.writer.ledger_head.repairs", "{repair}", "Times the sales ledger's head was found behind the ledger and derived from it again");

    private const int DuplicateKey = 1062;
    private const int MaxDuplicateRounds = 5;

    private const string StoreSql = $"""
        BEGIN;
        INSERT INTO purchases (id, store_id, customer_id, purchase_date, received_at, items)
        SELECT UNHEX(j.id), j.store_id, j.customer_id, j.purchase_date, j.received_at, j.items
        FROM JSON_TABLE(@batch, '$[*]' COLUMNS (
            id CHAR(32) PATH '$.id',
            store_id INT PATH '$.store',
            customer_id INT PATH '$.customer',
            purchase_date DATE PATH '$.date',
            received_at DATETIME(6) PATH '$.received',
            items TEXT PATH '$.items')) AS j;
        {SalesLedgerAppend.Sql}
        COMMIT;
        """;

    private const string StoredIdsSql = """
        SELECT p.id FROM JSON_TABLE(@ids, '$[*]' COLUMNS (id CHAR(32) PATH '$')) AS j JOIN purchases p ON p.id = UNHEX(j.id)
        """;

    private readonly string _connectionString = options.Value.PooledConnectionString();

    /// <inheritdoc />
    public async Task<int> WriteAsync(IReadOnlyList<PurchaseRecorded> purchases, CancellationToken cancellationToken)
    {
        // The same id twice in one batch (a till's keyed retry grouped with its first attempt) is one purchase.
        var pending = purchases.DistinctBy(p => p.PurchaseId).ToList();
        await using var connection = new MySqlConnection(_connectionString);
        await connection.OpenAsync(cancellationToken);
        for (var round = 1; pending.Count > 0; round++)
        {
            try
            {
                await connection.ExecuteAsync(new CommandDefinition(StoreSql,
                    new { batch = ToJson(pending), purchases = pending.Count, sales = PurchaseRows.SalesOf(pending) }, cancellationToken: cancellationToken));
                return pending.Count;
            }
            catch (Exception exception)
            {
                // The transaction began in the command text, so nothing else ends it: a pooled connection returned
                // with it open would commit its first statements with the next BEGIN.
                await RollBackAsync(connection);
                if (exception is MySqlException { ErrorCode: MySqlErrorCode.PacketTooLarge } && pending.Count > 1)
                {
                    // Back to the pool first: the halves take connections of their own.
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

    /// <summary>
    /// MariaDB refuses a command larger than its max_allowed_packet, however often it is sent: the batch is stored as
    /// two transactions instead, each with its own ledger entry, halved again while still too large. A single purchase
    /// always fits a server that holds the catalog's largest (CatalogOptions.LargestStoredLines); one that does not is
    /// the database's setting, reported as the database away, and waits in its retries until it is raised.
    /// </summary>
    private async Task<int> WriteInHalvesAsync(List<PurchaseRecorded> purchases, CancellationToken cancellationToken)
    {
        logger.LogWarning("A transaction of {Count} purchases is larger than the database's max_allowed_packet; storing it in halves", purchases.Count);
        var half = purchases.Count / 2;
        return await WriteAsync(purchases[..half], cancellationToken) + await WriteAsync(purchases[half..], cancellationToken);
    }

    /// <summary>No purchase of the batch is stored, so the duplicate was a seq: the head fell behind the ledger. A head
    /// found not behind was repaired meanwhile by another writer that met the same duplicate: the batch is simply tried
    /// again, and a duplicate nothing explains ends, after <see cref="MaxDuplicateRounds"/>, as SalesLedgerInconsistent.</summary>
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
            // A broken connection: the server rolls the transaction back as the connection ends.
        }
    }

    private static async Task<HashSet<Guid>> StoredIdsAsync(MySqlConnection connection, List<PurchaseRecorded> purchases, CancellationToken cancellationToken)
    {
        var ids = JsonSerializer.Serialize(purchases.Select(p => Convert.ToHexString(PurchaseKeys.ToKey(p.PurchaseId))));
        var keys = await connection.QueryAsync<byte[]>(new CommandDefinition(StoredIdsSql, new { ids }, cancellationToken: cancellationToken));
        return [.. keys.Select(PurchaseKeys.FromKey)];
    }

    /// <summary>The batch as JSON_TABLE reads it. Ids are the big-endian key bytes in hex (see PurchaseKeys).</summary>
    internal static string ToJson(IReadOnlyList<PurchaseRecorded> purchases)
    {
        var buffer = new ArrayBufferWriter<byte>(purchases.Count * 256);
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartArray();
            foreach (var purchase in purchases)
            {
                json.WriteStartObject();
                json.WriteString("id", Convert.ToHexString(PurchaseKeys.ToKey(purchase.PurchaseId)));
                json.WriteNumber("store", purchase.StoreId);
                json.WriteNumber("customer", purchase.CustomerId);
                json.WriteString("date", PurchaseRows.Date(purchase));
                json.WriteString("received", PurchaseRows.ReceivedAt(purchase));
                json.WriteString("items", PurchaseRows.Items(purchase.Items));
                json.WriteEndObject();
            }

            json.WriteEndArray();
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
