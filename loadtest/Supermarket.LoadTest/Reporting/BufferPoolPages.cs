using System.Text.Json.Serialization;
using Supermarket.Database.LoadTest;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// What MariaDB's buffer pool did, in pages, between two readings of its counters: taken when the first POST goes out
/// and when the last purchase is stored and counted, as <see cref="ProcessCpu"/> is. Pages read from disk a purchase
/// is what shows history outgrowing the pool (issue #45): an index that no longer fits has each insert read its leaf
/// from disk first, and the CPU a purchase grows with it.
/// </summary>
/// <param name="ServerStartedAt">When MariaDB started, as the reading found it (to the second): pages of two starts are
/// not comparable. Not a figure of the report.</param>
public sealed record BufferPoolPages(long ReadFromDisk, long Requested, long Written,
    [property: JsonIgnore] DateTimeOffset ServerStartedAt = default)
{
    /// <summary>Uptime is counted in whole seconds, and two readings take their own time.</summary>
    private static readonly TimeSpan SameStart = TimeSpan.FromSeconds(3);

    /// <summary>The counters now; null when the database does not answer (the report says "not measured").</summary>
    public static async Task<BufferPoolPages?> ReadAsync(StoredSales stored)
    {
        try
        {
            var (read, requested, written, uptime) = await stored.BufferPoolCountersAsync();
            return new BufferPoolPages(read, requested, written, DateTimeOffset.UtcNow - TimeSpan.FromSeconds(uptime));
        }
        catch (Exception exception) when (DatabaseOutage.Explains(exception))
        {
            return null;
        }
    }

    /// <summary>The pages between two readings; null when MariaDB restarted in between (the chaos run's
    /// mariadb-restart), which began its counters again: what the day did is then not known.</summary>
    public BufferPoolPages? Since(BufferPoolPages before) =>
        (ServerStartedAt - before.ServerStartedAt).Duration() > SameStart
        || ReadFromDisk < before.ReadFromDisk || Requested < before.Requested || Written < before.Written
            ? null
            : new(ReadFromDisk - before.ReadFromDisk, Requested - before.Requested, Written - before.Written);
}
