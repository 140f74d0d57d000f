namespace Supermarket.Store.Recovery;

/// <summary>
/// What the start-up rebuild counted, and whether it has finished. Consumers wait for <see cref="Ready"/> before they
/// count or answer anything. The aggregator's queue may hold purchases the rebuild already counted (written to MySQL
/// but not yet counted when the aggregator stopped); <see cref="Contains"/> tells them apart so none counts twice.
/// Purchases published after the rebuild are new, so the set is never added to.
/// </summary>
public sealed class RecoveredPurchases
{
    private readonly TaskCompletionSource _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private HashSet<Guid> _ids = [];

    public Task Ready => _ready.Task;

    public bool Contains(Guid purchaseId) => _ids.Contains(purchaseId);

    public void Complete(HashSet<Guid> ids)
    {
        _ids = ids;
        _ready.TrySetResult();
    }
}
