using Supermarket.Contracts.Purchases;

namespace Supermarket.LoadTest.History;

/// <summary>
/// One day of the chain's past as the history holds it: the load test's day (every store's purchases, a random
/// customer of the store, <see cref="LoadOptions.ItemsPerPurchase"/> random items of quantity 1), received evenly over
/// the day in UTC and in that order, so their UUIDv7 ids grow as a real day's do. The same seed and day make the same
/// purchases (ids aside), so a fill that stopped can go on where it stopped.
/// </summary>
public static class HistoryDay
{
    public static IEnumerable<PurchaseRecorded> Purchases(LoadOptions chain, DateOnly day)
    {
        var random = new Random(unchecked((chain.Seed * 1_000_003) + day.DayNumber));
        var total = chain.TotalPurchases;
        var midnight = new DateTimeOffset(day.ToDateTime(TimeOnly.MinValue), TimeSpan.Zero);
        var ticksApart = TimeSpan.TicksPerDay / total;
        for (long i = 0; i < total; i++)
        {
            var store = (int)(i % chain.Stores) + 1;
            var customer = (store * 1000) + random.Next(chain.CustomersPerStore);
            var items = new PurchaseLine[chain.ItemsPerPurchase];
            for (var line = 0; line < items.Length; line++)
            {
                items[line] = new PurchaseLine(random.Next(1, chain.MaxItemId + 1), 1);
            }

            var receivedAt = midnight.AddTicks(i * ticksApart);
            yield return new PurchaseRecorded(Guid.CreateVersion7(receivedAt), store, customer, day, items, receivedAt);
        }
    }
}
