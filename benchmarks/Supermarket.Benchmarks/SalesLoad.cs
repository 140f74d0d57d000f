using Supermarket.Contracts.Purchases;

namespace Supermarket.Benchmarks;

/// <summary>Purchases as the load test sends them: a random store, five random items, quantity 1.</summary>
public static class SalesLoad
{
    public const int MaxItemId = 100_000;
    public const int MaxStores = 512;
    public const int ItemsPerPurchase = 5;

    public static (int Store, PurchaseLine[] Lines)[] Purchases(int count, int seed)
    {
        var random = new Random(seed);
        var purchases = new (int, PurchaseLine[])[count];
        for (var p = 0; p < count; p++)
        {
            var lines = new PurchaseLine[ItemsPerPurchase];
            for (var i = 0; i < lines.Length; i++)
            {
                lines[i] = new PurchaseLine(random.Next(1, MaxItemId + 1), 1);
            }

            purchases[p] = (random.Next(1, MaxStores + 1), lines);
        }

        return purchases;
    }
}
