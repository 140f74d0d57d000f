using Supermarket.Database.Ledger;

namespace Supermarket.SalesAggregator.Counting;

/// <summary>Entries commit in seq order, so this is the whole of what the matrix holds; <paramref name="StoredAt"/> tells
/// this ledger from one restored from a backup, whose seqs start again below ours with other entries.</summary>
public readonly record struct LedgerPosition(long Seq, DateTime StoredAt)
{
    public static LedgerPosition Start { get; } = new(0, DateTime.MinValue);

    public static LedgerPosition Of(LedgerEntry entry) => new((long)entry.Seq, entry.StoredAt);
}
