namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// Everything the run sent one store, and so one customer of it (customers buy at one store): the verification's
/// ground truth for the purchase history endpoints. The customer is the one of the store's first 201, chosen under
/// the same lock that records, so none of that customer's purchases is missed.
/// </summary>
public sealed class HistorySample(int store)
{
    private readonly Lock _gate = new();
    private readonly List<PlannedPurchase> _acknowledged = [];
    private readonly List<PlannedPurchase> _unconfirmed = [];

    public int Store => store;

    /// <summary>Purchases the API received since then are this run's (or another client's) and no earlier day's.</summary>
    public DateTimeOffset Since { get; } = DateTimeOffset.UtcNow;

    /// <summary>Null until the store's first 201.</summary>
    public int? Customer { get; private set; }

    /// <summary>What got a 201: each must be in the history, exactly as sent.</summary>
    public IReadOnlyList<PlannedPurchase> Acknowledged => _acknowledged;

    /// <summary>What got no 201 in the end: each may or may not have been stored (a publish that timed out may still
    /// have reached the broker).</summary>
    public IReadOnlyList<PlannedPurchase> Unconfirmed => _unconfirmed;

    public void Add(PlannedPurchase purchase, bool acknowledged)
    {
        if (purchase.StoreId != store)
        {
            return;
        }

        lock (_gate)
        {
            if (acknowledged)
            {
                Customer ??= purchase.CustomerId;
                _acknowledged.Add(purchase);
            }
            else
            {
                _unconfirmed.Add(purchase);
            }
        }
    }
}
