using System.Collections.Concurrent;

namespace Supermarket.LoadTest.Scenario;

/// <summary>When the run retries: which purchases ended with a 201 and which the stores gave up on, by the id the API
/// derives from each one's idempotency key. The verification checks MySQL against both.</summary>
public sealed class PurchaseOutcomes
{
    private readonly ConcurrentBag<Guid> _acknowledged = [];
    private readonly ConcurrentBag<Guid> _givenUp = [];

    public IReadOnlyCollection<Guid> Acknowledged => _acknowledged;

    public IReadOnlyCollection<Guid> GivenUp => _givenUp;

    public void Acknowledge(PlannedPurchase purchase) => _acknowledged.Add(purchase.Id);

    public void GiveUp(PlannedPurchase purchase) => _givenUp.Add(purchase.Id);
}
