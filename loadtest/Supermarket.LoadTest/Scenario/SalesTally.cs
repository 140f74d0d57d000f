using System.Collections.Concurrent;

namespace Supermarket.LoadTest.Scenario;

/// <summary>What the run itself got a 201 for, at a few sampled stores: the verification's independent ground truth.</summary>
public sealed class SalesTally(IEnumerable<int> sampledStores)
{
    private readonly Dictionary<int, ConcurrentDictionary<int, int>> _units =
        sampledStores.Distinct().ToDictionary(store => store, _ => new ConcurrentDictionary<int, int>());

    public IReadOnlyCollection<int> Stores => _units.Keys;

    public void Add(PlannedPurchase purchase)
    {
        if (_units.TryGetValue(purchase.StoreId, out var items))
        {
            foreach (var item in purchase.Items)
            {
                items.AddOrUpdate(item, 1, (_, units) => units + 1);
            }
        }
    }

    /// <summary>Every item the run sold at the store, with its units.</summary>
    public IReadOnlyDictionary<int, long> Units(int store) => _units[store].ToDictionary(e => e.Key, e => (long)e.Value);

    /// <summary>The store's best sellers by this run's own count: most units first, ties by the lower item id.</summary>
    public IReadOnlyList<(int Id, long Units)> TopItems(int store, int count) =>
        [.. _units[store].OrderByDescending(e => e.Value).ThenBy(e => e.Key).Take(count).Select(e => (e.Key, (long)e.Value))];
}
