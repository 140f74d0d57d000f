namespace Supermarket.PurchasesWriter.Storage;

/// <summary>
/// How an entry joins the sales ledger, inside the transaction that stores its purchases, as its last statements
/// before COMMIT: it takes the next seq from <c>ledger_head</c> (migration 0004), whose row it then holds locked until
/// the commit. Entries therefore commit in seq order and a rolled-back transaction leaves no hole, so reading the
/// ledger in seq order from the last seq counted misses nothing, with no clock and no wait for stragglers. The lock
/// covers only these two statements and the commit; the purchases are inserted before it, concurrently.
/// </summary>
public static class SalesLedgerAppend
{
    /// <summary>Parameters <c>@purchases</c> (how many the entry covers) and <c>@sales</c> (SalesLedgerEntry's
    /// encoding); the seq taken is then the connection's LAST_INSERT_ID().</summary>
    public const string Sql = """
        UPDATE ledger_head SET last_seq = LAST_INSERT_ID(last_seq + 1) WHERE id = 1;
        INSERT INTO sales_ledger (seq, stored_at, purchases, sales) VALUES (LAST_INSERT_ID(), UTC_TIMESTAMP(6), @purchases, @sales);
        """;
}
