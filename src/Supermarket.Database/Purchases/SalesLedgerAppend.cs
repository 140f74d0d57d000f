using Dapper;
using MySqlConnector;

namespace Supermarket.Database.Purchases;

/// <summary>
/// How an entry joins the sales ledger, inside the transaction that stores its purchases, as its last statements
/// before COMMIT: it takes the next seq from <c>ledger_head</c> (migration 0004), whose row it then holds locked until
/// the commit. Entries therefore commit in seq order and a rolled-back transaction leaves no hole. The lock covers
/// only these two statements and the commit; the purchases are inserted before it, concurrently.
/// </summary>
/// <remarks>
/// The head is the writer's own bookkeeping, and it can fall behind the ledger (a partial restore, a hand edit, a
/// writer from before migration 0006 taking seqs from AUTO_INCREMENT). The next seq then collides with an entry, and
/// the collision is the head's fault, never the purchases': <see cref="RepairHeadAsync"/> derives the head from the
/// ledger again. A missing head row starts again at 1 (and is repaired the same way if that collides), so a seq is
/// never a stale value of the connection's LAST_INSERT_ID().
/// </remarks>
public static class SalesLedgerAppend
{
    /// <summary>Parameters <c>@purchases</c> (how many the entry covers) and <c>@sales</c> (SalesLedgerEntry's
    /// encoding); the seq taken is then the connection's LAST_INSERT_ID().</summary>
    public const string Sql = """
        INSERT INTO ledger_head (id, last_seq) VALUES (1, LAST_INSERT_ID(1)) ON DUPLICATE KEY UPDATE last_seq = LAST_INSERT_ID(last_seq + 1);
        INSERT INTO sales_ledger (seq, stored_at, purchases, sales) VALUES (LAST_INSERT_ID(), UTC_TIMESTAMP(6), @purchases, @sales);
        """;

    /// <summary>Moves the head up to the ledger's last seq if it is behind (or missing), under the head's lock, as an
    /// appender takes it: no append is in flight while the ledger's last seq is read, nor between the read and the
    /// write.</summary>
    /// <returns>The head before and after; equal when it was not behind.</returns>
    public static async Task<(long Before, long After)> RepairHeadAsync(MySqlConnection connection, CancellationToken cancellationToken)
    {
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        var head = await connection.ExecuteScalarAsync<long?>(new CommandDefinition(
            "SELECT last_seq FROM ledger_head WHERE id = 1 FOR UPDATE", transaction: transaction, cancellationToken: cancellationToken));
        var last = await connection.ExecuteScalarAsync<long>(new CommandDefinition(
            "SELECT COALESCE(MAX(seq), 0) FROM sales_ledger", transaction: transaction, cancellationToken: cancellationToken));
        if (head is { } before && before >= last)
        {
            return (before, before);
        }

        await connection.ExecuteAsync(new CommandDefinition(
            "INSERT INTO ledger_head (id, last_seq) VALUES (1, @last) ON DUPLICATE KEY UPDATE last_seq = @last",
            new { last }, transaction, cancellationToken: cancellationToken));
        await transaction.CommitAsync(cancellationToken);
        return (head ?? -1, last);
    }
}
