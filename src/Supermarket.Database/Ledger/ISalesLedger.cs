namespace Supermarket.Database.Ledger;

/// <summary>The contract between the writer's database and the aggregator (docs/architecture.md, "Guarantees").</summary>
public interface ISalesLedger
{
    Task<LedgerIdentity> IdentityAsync(CancellationToken cancellationToken);

    /// <summary>The entry at <paramref name="seq"/> and the page after it as of one moment: no restore can come between
    /// the check that the entry counted last is still there and the read of what follows it.</summary>
    Task<LedgerRead> ReadFromAsync(long seq, CancellationToken cancellationToken);
}

/// <param name="Id">A checkpoint of another ledger is not used; a restore brings this back, hence StoredAt.</param>
/// <param name="GaplessAfter">Seqs up to it may be missing for good (migration 0006); above, still to commit.</param>
public readonly record struct LedgerIdentity(Guid Id, long GaplessAfter);

/// <param name="StoredAt">Of the entry read from (null: none); another than the one counted there is a restore.</param>
public sealed record LedgerRead(DateTime? StoredAt, IReadOnlyList<LedgerEntry> After);
