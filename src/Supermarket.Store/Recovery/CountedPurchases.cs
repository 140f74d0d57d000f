namespace Supermarket.Store.Recovery;

/// <summary>
/// Which purchases the matrix already holds, so none is counted twice, and whether the start-up rebuild has finished
/// (consumers wait for <see cref="Ready"/> before they count or answer anything).
/// </summary>
/// <remarks>
/// A purchase can arrive twice: the writer publishes a batch again when it retries it, and the broker redelivers
/// what a worker had not acknowledged when its connection dropped; after a restart, the queue also holds purchases
/// the rebuild read from MySQL. Duplicates of these kinds are recent, so the set remembers only the last
/// <c>capacity</c> purchases (oldest forgotten first), which keeps memory flat over months of sales.
/// </remarks>
public sealed class CountedPurchases(int capacity)
{
    private readonly TaskCompletionSource _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly HashSet<Guid> _ids = new(capacity);
    private readonly Queue<Guid> _oldestFirst = new(capacity);
    private readonly Lock _lock = new();

    public Task Ready => _ready.Task;

    /// <summary>True if the purchase is new (and is now remembered); false if it was counted already.</summary>
    public bool TryAdd(Guid purchaseId)
    {
        lock (_lock)
        {
            if (!_ids.Add(purchaseId))
            {
                return false;
            }

            _oldestFirst.Enqueue(purchaseId);
            if (_oldestFirst.Count > capacity)
            {
                _ids.Remove(_oldestFirst.Dequeue());
            }

            return true;
        }
    }

    public void Complete() => _ready.TrySetResult();
}
