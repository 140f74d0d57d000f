using Dapper;
using MySqlConnector;

namespace Supermarket.Database.Ledger;

/// <summary>
/// How an entry joins the sales ledger, inside the transaction that stores its purchases, as its last statements
/// before COMMIT: it takes the next seq from <c>ledger_head</c> (migration 0004), whose row it then holds locked until
/// the commit. Entries therefore commit in seq order and a rolled-back transaction leaves no hole. The lock covers
/// only these statements and the commit; the purchases are inserted before it, concurrently.
/// </summary>
/// <remarks>
/// The head is the writer's own bookkeeping, and it can fall behind the ledger (a partial restore, a hand edit, a
/// writer from before migration 0006 taking seqs from AUTO_INCREMENT). The next seq then collides with an entry, and
/// the collision is the head's fault, never the purchases': <see cref="RepairHeadAsync"/> derives the head from the
/// ledger again. A missing head row starts again at 1 (and is repaired the same way if that collides), so a seq is
/// never a stale value of the connection's LAST_INSERT_ID().
/// The head can also be ahead of the ledger (<c>sales_ledger</c> restored alone from an older backup, the head still
/// counting the lost entries). Nothing collides then, and a seq taken from the head would leave a hole every aggregator
/// waits at for good (#72): so the seq taken is never above the ledger's last entry + 1, read under the head's lock
/// (no append in flight), and the head comes down with it.
/// </remarks>
public static class SalesLedgerAppend
{
    /// <summary>Parameters <c>@purchases</c> (how many the entry covers) and <c>@sales</c> (SalesLedgerEntry's
    /// encoding); the seq taken is then the connection's LAST_INSERT_ID(). The last entry is read in a statement of its
    /// own, after the first holds the head's lock: read in the first, the optimizer would take MAX(seq) before the wait
    /// for the lock, and miss the entry of the transaction it waited for.</summary>
    public const string Sql = """
        INSERT INTO ledger_head (id, last_seq) VALUES (1, LAST_INSERT_ID(1)) ON DUPLICATE KEY UPDATE last_seq = LAST_INSERT_ID(last_seq + 1);
        UPDATE ledger_head SET last_seq = LAST_INSERT_ID((SELECT COALESCE(MAX(seq), 0) + 1 FROM sales_ledger))
            WHERE id = 1 AND last_seq > (SELECT COALESCE(MAX(seq), 0) + 1 FROM sales_ledger);
        INSERT INTO sales_ledger (seq, stored_at, purchases, sales) VALUES (LAST_INSERT_ID(), UTC_TIMESTAMP(6), @purchases, @sales);
        """;

    /// <summary>Moves the head up past the entries that follow on from it without a gap, under the head's lock, as an
    /// appender takes it: no append is in flight while the ledger is read, nor between the read and the write. Only to
    /// the end of that run, never to the ledger's last seq: a ledger with a hole above the head (rows 1..10, 12, 20 and
    /// head 10, after a partial restore or a hand edit) has the hole filled by the next appends, where a head moved to
    /// 20 would leave 13..19 unwritten for good and every aggregator waiting at 13 (#57).</summary>
    /// <returns>The head before and after; equal when it was not behind.</returns>
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

    /// <summary>The last seq of the entries that follow <paramref name="head"/> without a gap; the head itself when the
    /// next seq is free.</summary>
    private static async Task<long> EndOfRunAsync(MySqlConnection connection, MySqlTransaction transaction, long head, CancellationToken cancellationToken)
    {
        // Usually the whole rest of the ledger follows on (a head set back, or lost): one range count tells.
        var (last, count) = await connection.QuerySingleAsync<(long, long)>(new CommandDefinition(
            "SELECT COALESCE(MAX(seq), 0), COUNT(*) FROM sales_ledger WHERE seq > @head",
            new { head }, transaction, cancellationToken: cancellationToken));
        if (count == last - head)
        {
            return Math.Max(head, last);
        }

        // A hole above the head: the first entry after it whose successor is missing ends the run (none: the next seq
        // is free already).
        return await connection.ExecuteScalarAsync<long?>(new CommandDefinition("""
            SELECT l.seq FROM sales_ledger l LEFT JOIN sales_ledger n ON n.seq = l.seq + 1
            WHERE l.seq > @head AND n.seq IS NULL AND EXISTS (SELECT 1 FROM sales_ledger WHERE seq = @head + 1)
            ORDER BY l.seq LIMIT 1
            """, new { head }, transaction, cancellationToken: cancellationToken)) ?? head;
    }
}
