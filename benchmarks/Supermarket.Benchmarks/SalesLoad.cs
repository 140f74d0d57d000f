using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;

namespace Supermarket.Benchmarks;

/// <summary>Sales as the load test sends them (a random store, five random items, quantity 1), grouped into sales
/// ledger entries as the Purchases writer stores them: one entry for each group of purchases the API published.</summary>
public static class SalesLoad
{
    public const int MaxItemId = 100_000;
    public const int MaxStores = 512;
    public const int ItemsPerPurchase = 5;

    /// <summary>About the purchases a broker message carries on the A3 day (docs/performance.md, "The purchase's cost": 59-60).</summary>
    public const int PurchasesPerEntry = 60;

    /// <summary>The entries one benchmark invocation counts.</summary>
    public const int EntriesCounted = 200;

    /// <summary>The load test's purchases are all of its one date, so each entry is one group of one day.</summary>
    public static readonly DateOnly Day = new(2019, 1, 1);

    public static byte[][] LedgerEntries(int count, int seed)
    {
        var random = new Random(seed);
        var entries = new byte[count][];
        var lines = new List<SaleLine>(PurchasesPerEntry * ItemsPerPurchase);
        for (var e = 0; e < count; e++)
        {
            lines.Clear();
            for (var p = 0; p < PurchasesPerEntry; p++)
            {
                var store = random.Next(1, MaxStores + 1);
                for (var i = 0; i < ItemsPerPurchase; i++)
                {
                    lines.Add(new SaleLine(store, random.Next(1, MaxItemId + 1), 1, Day));
                }
            }

            entries[e] = SalesLedgerEntry.Encode(lines);
        }

        return entries;
    }
}
