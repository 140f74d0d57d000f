namespace Supermarket.Database.Ledger;

/// <summary>
/// The sales ledger as the feed reads it: the contract between the writer's database and the aggregator (README,
/// "Guarantees"). <see cref="SalesLedgerReader"/> reads it from MySQL; the feed's fast tests give it a ledger in memory.
/// </summary>
public interface ISalesLedger
{
    /// <summary>Names this database's ledger, so a checkpoint from another one is not used, and says below which seq
    /// it may hold gaps.</summary>
    Task<LedgerIdentity> IdentityAsync(CancellationToken cancellationToken);

    /// <summary>When the entry <paramref name="seq"/> was stored; null if the ledger has no such entry.</summary>
    Task<DateTime?> StoredAtAsync(long seq, CancellationToken cancellationToken);

    /// <summary>The entries after <paramref name="seq"/>, a page of them (Aggregator:LedgerPageSize), in seq order.</summary>
    Task<IReadOnlyList<LedgerEntry>> ReadAfterAsync(long seq, CancellationToken cancellationToken);
}

/// <param name="Id">This database's ledger (<c>ledger_identity</c>); a restore brings its own back.</param>
/// <param name="GaplessAfter">Seqs up to this one were taken before the ledger was gapless (migration 0004: rolled back
/// AUTO_INCREMENT values left holes that will never fill); above it, a missing seq is one still to commit.</param>
public readonly record struct LedgerIdentity(Guid Id, long GaplessAfter);
