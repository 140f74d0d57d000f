using Supermarket.Database.Ledger;

namespace Supermarket.SalesAggregator.Ledger;

/// <summary>
/// How far the matrix has counted the sales ledger: every entry up to <paramref name="Seq"/>, the last of which was
/// stored at <paramref name="StoredAt"/>. Entries commit in seq order (the writer's SalesLedgerAppend), so nothing
/// below a seq that can be read is still to come, and this is the whole of what the matrix holds. The stored_at tells
/// this ledger from one restored from a backup, whose seqs start again below ours with other entries.
/// </summary>
public readonly record struct LedgerPosition(long Seq, DateTime StoredAt)
{
    public static LedgerPosition Start { get; } = new(0, DateTime.MinValue);

    /// <summary>Where the matrix stands once <paramref name="entry"/> is counted.</summary>
    public static LedgerPosition Of(LedgerEntry entry) => new((long)entry.Seq, entry.StoredAt);
}
