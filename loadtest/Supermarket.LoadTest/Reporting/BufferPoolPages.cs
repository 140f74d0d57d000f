using Supermarket.Database.LoadTest;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// What MariaDB's buffer pool did, in pages, between two readings of its counters: taken when the first POST goes out
/// and when the last purchase is stored and counted, as <see cref="ProcessCpu"/> is. Pages read from disk a purchase
/// is what shows history outgrowing the pool (issue #45): an index that no longer fits has each insert read its leaf
/// from disk first, and the CPU a purchase grows with it.
/// </summary>
public sealed record BufferPoolPages(long ReadFromDisk, long Requested, long Written)
{
    /// <summary>The counters now; null when the database does not answer (the report says "not measured").</summary>
    public static async Task<BufferPoolPages?> ReadAsync(StoredSales stored)
    {
        try
        {
            var (read, requested, written) = await stored.BufferPoolCountersAsync();
            return new BufferPoolPages(read, requested, written);
        }
        catch (Exception exception) when (DatabaseOutage.Explains(exception))
        {
            return null;
        }
    }

    /// <summary>The pages between two readings; null when a counter went back, as it does when MariaDB restarted in
    /// between (the chaos run's mariadb-restart): what the day did is then not known.</summary>
    public BufferPoolPages? Since(BufferPoolPages before) =>
        ReadFromDisk < before.ReadFromDisk || Requested < before.Requested || Written < before.Written
            ? null
            : new(ReadFromDisk - before.ReadFromDisk, Requested - before.Requested, Written - before.Written);
}
