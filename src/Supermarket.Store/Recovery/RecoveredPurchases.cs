namespace Supermarket.Store.Recovery;

/// <summary>
/// The purchases the matrix was rebuilt from at start. The aggregator's queue may still hold some of them (they were
/// written to MySQL but not yet counted when the aggregator stopped); those must not be counted a second time.
/// Every purchase published after the rebuild is new, so this set only ever shrinks in relevance and is never added to.
/// </summary>
public sealed class RecoveredPurchases
{
    private HashSet<Guid> _ids = [];

    public int Count => _ids.Count;

    public bool Contains(Guid purchaseId) => _ids.Contains(purchaseId);

    public void Replace(HashSet<Guid> ids) => _ids = ids;
}
