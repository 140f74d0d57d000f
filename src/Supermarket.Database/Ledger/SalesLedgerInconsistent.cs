namespace Supermarket.Database.Ledger;

/// <summary>Not the purchases' fault, so never set aside: the batch waits in its retries, the writer not ready, until a
/// person repairs the ledger.</summary>
public sealed class SalesLedgerInconsistent(string message, Exception? inner = null)
    : Exception($"The sales ledger's bookkeeping is inconsistent: {message}", inner);
