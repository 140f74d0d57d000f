namespace Supermarket.Database.Ledger;

/// <summary>
/// The writer's own rows (the sales ledger and its head) are in a state it cannot repair. Not the purchases' fault,
/// so not <see cref="StorageFailure.IsUnstorable"/>: the batch waits in its retries, and the writer reports itself not
/// ready with this message, until a person repairs the ledger.
/// </summary>
public sealed class SalesLedgerInconsistent(string message, Exception? inner = null)
    : Exception($"The sales ledger's bookkeeping is inconsistent: {message}", inner);
