using Dapper;
using MySqlConnector;

namespace Supermarket.Database.Ledger;

/// <summary>The last statements before COMMIT take the seq from <c>ledger_head</c> and hold its row locked until the
/// commit: entries commit in seq order, and a rollback leaves no hole (docs/reliability.md, "Exact without clocks").
/// A head behind the ledger collides and is repaired; one ahead is brought down to the last entry + 1.</summary>
public static class SalesLedgerAppend
{
    // MAX(seq) in a statement of its own, once the head's lock is held: in the first, the optimizer would read it
    // before the wait for the lock and miss the entry of the transaction it waited for.
    public const string Sql = """
        INSERT INTO ledger_head (id, last_seq) VALUES (1, LAST_INSERT_ID(1)) ON DUPLICATE KEY UPDATE last_seq = LAST_INSERT_ID(last_seq + 1);
        UPDATE ledger_head SET last_seq = LAST_INSERT_ID((SELECT COALESCE(MAX(seq), 0) + 1 FROM sales_ledger))
            WHERE id = 1 AND last_seq > (SELECT COALESCE(MAX(seq), 0) + 1 FROM sales_ledger);
        INSERT INTO sales_ledger (seq, stored_at, purchases, sales) VALUES (LAST_INSERT_ID(), UTC_TIMESTAMP(6), @purchases, @sales);
        """;

    /// <summary>Under the head's lock, only to the end of the run that follows on from it: a hole above that is filled
    /// by the next appends, where a head moved past it would leave it unwritten for good.</summary>
    public static async Task<(long Before, long After)> RepairHeadAsync(MySqlConnection connection, CancellationToken cancellationToken)
    {
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        var head = await connection.ExecuteScalarAsync<long?>(new CommandDefinition(
            "SELECT last_seq FROM ledger_head WHERE id = 1 FOR UPDATE", transaction: transaction, cancellationToken: cancellationToken));
        var after = await EndOfRunAsync(connection, transaction, head ?? 0, cancellationToken);
        if (head is { } before && before >= after)
        {
            return (before, before);
        }

        await connection.ExecuteAsync(new CommandDefinition(
            "INSERT INTO ledger_head (id, last_seq) VALUES (1, @after) ON DUPLICATE KEY UPDATE last_seq = @after",
            new { after }, transaction, cancellationToken: cancellationToken));
        await transaction.CommitAsync(cancellationToken);
        return (head ?? -1, after);
    }

    private static async Task<long> EndOfRunAsync(MySqlConnection connection, MySqlTransaction transaction, long head, CancellationToken cancellationToken)
    {
        var (last, count) = await connection.QuerySingleAsync<(long, long)>(new CommandDefinition(
            "SELECT COALESCE(MAX(seq), 0), COUNT(*) FROM sales_ledger WHERE seq > @head",
            new { head }, transaction, cancellationToken: cancellationToken));
        if (count == last - head)
        {
            return Math.Max(head, last);
        }

        return await connection.ExecuteScalarAsync<long?>(new CommandDefinition("""
            SELECT l.seq FROM sales_ledger l LEFT JOIN sales_ledger n ON n.seq = l.seq + 1
            WHERE l.seq > @head AND n.seq IS NULL AND EXISTS (SELECT 1 FROM sales_ledger WHERE seq = @head + 1)
            ORDER BY l.seq LIMIT 1
            """, new { head }, transaction, cancellationToken: cancellationToken)) ?? head;
    }
}
