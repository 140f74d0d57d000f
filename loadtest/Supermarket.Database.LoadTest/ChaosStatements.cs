namespace Supermarket.Database.LoadTest;

/// <summary>The statements the chaos run's faults and probes send as the database's operator (MariaDB's root, over its
/// socket): kept beside the schema they touch.</summary>
public static class ChaosStatements
{
    /// <summary>The purchases stored: a database back from a fault has recovered once this grows.</summary>
    public const string StoredPurchases = "SELECT COUNT(*) FROM purchases";

    /// <summary>The purchases the sales ledger holds, which sets how long an aggregator's rebuild takes.</summary>
    public const string LedgerPurchases = "SELECT COALESCE(SUM(purchases), 0) FROM sales_ledger";

    /// <summary>
    /// A restore of a backup taken this instant, as the aggregator tells one: the same entries, each stored_at another.
    /// Under the ledger head's lock, so no entry commits meanwhile: the entry the aggregator counted last has moved.
    /// </summary>
    public const string RestoreOfThisInstant = """
        BEGIN;
        UPDATE ledger_head SET last_seq = last_seq WHERE id = 1;
        UPDATE sales_ledger SET stored_at = stored_at + INTERVAL 1 MICROSECOND;
        COMMIT;
        """;
}
