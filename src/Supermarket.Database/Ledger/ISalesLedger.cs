namespace Supermarket.Database.Ledger;

/// <summary>
/// The sales ledger as the feed reads it: the contract between the writer's database and the aggregator (docs/architecture.md,
/// "Guarantees"). <see cref="SalesLedgerReader"/> reads it from MySQL; the feed's fast tests give it a ledger in memory.
/// </summary>
public interface ISalesLedger
{
    /// <summary>Names this database's ledger, so a checkpoint from another one is not used, and says below which seq
    /// it may hold gaps.</summary>
    Task<LedgerIdentity> IdentityAsync(CancellationToken cancellationToken);

    /// <summary>The entry at <paramref name="seq"/> as the ledger holds it now, and a page of the entries after it
    /// (Aggregator:LedgerPageSize), in seq order: both as of one moment, so that nothing (a restore of the database,
    /// then a writer's commit on the restored ledger) can come between the check that the entry counted last is still
    /// there and the read of what follows it (#57).</summary>
    Task<LedgerRead> ReadFromAsync(long seq, CancellationToken cancellationToken);
}

/// <param name="Id">This database's ledger (<c>ledger_identity</c>); a restore brings its own back.</param>
/// <param name="GaplessAfter">Seqs up to this one were taken before the ledger was gapless (migration 0004: rolled back
/// AUTO_INCREMENT values left holes that will never fill); above it, a missing seq is one still to commit.</param>
public readonly record struct LedgerIdentity(Guid Id, long GaplessAfter);

/// <param name="StoredAt">When the entry read from was stored; null if the ledger has no such entry (or the read began
/// at the start, seq 0).</param>
/// <param name="After">The entries after it, a page of them, in seq order.</param>
public sealed record LedgerRead(DateTime? StoredAt, IReadOnlyList<LedgerEntry> After);
