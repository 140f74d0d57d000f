using System.Globalization;
using System.Text;
using Supermarket.Contracts.Purchases;

namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// Makes one store's purchases as the reference client does: a random customer of the store, random item ids sent as
/// strings, quantity 1, in the exact body the course's generated clients send (note the key "numberOfItems:").
/// One factory per store, each with its own seeded random source, so a run is repeatable and needs no locking.
/// </summary>
public sealed class PurchaseFactory(LoadOptions options, int storeId)
{
    // Not HashCode.Combine: it is seeded afresh in every process, and a run given the same seed and run id must send
    // the same purchases again (the chaos run's late retries), or every key would come back with another body (422).
    private readonly Random _random = new(unchecked((options.Seed * 1_000_003) + storeId));
    private readonly StringBuilder _body = new(64 * options.ItemsPerPurchase);
    private readonly DateOnly _date = DateOnly.ParseExact(options.Date, "yyyyMMdd", CultureInfo.InvariantCulture);
    private long _sequence;

    public int StoreId { get; } = storeId;

    public PlannedPurchase Next()
    {
        var customer = (StoreId * 1000) + _random.Next(options.CustomersPerStore);
        var path = string.Create(CultureInfo.InvariantCulture, $"purchase/{StoreId}/customer/{customer}/date/{options.Date}");
        var items = new int[options.ItemsPerPurchase];
        var body = NextBody(items);
        // Only a retrying run sends keys and checks ids; deriving an id costs a SHA-256 the plain day does not need.
        if (!options.Retries)
        {
            return new PlannedPurchase(StoreId, customer, path, body, items, null, Guid.Empty);
        }

        var key = string.Create(CultureInfo.InvariantCulture, $"{options.RunId}-{++_sequence}");
        return new PlannedPurchase(StoreId, customer, path, body, items, key, PurchaseIds.ForIdempotencyKey(StoreId, _date, key));
    }

    private byte[] NextBody(int[] items)
    {
        _body.Clear().Append("{\"items\":[");
        for (var i = 0; i < items.Length; i++)
        {
            items[i] = _random.Next(1, options.MaxItemId + 1);
            _body.Append(i == 0 ? "" : ",")
                .Append("{\"ItemID\":\"").Append(items[i].ToString(CultureInfo.InvariantCulture)).Append("\",\"numberOfItems:\":1}");
        }

        return Encoding.UTF8.GetBytes(_body.Append("]}").ToString());
    }
}

/// <summary>A purchase ready to send: its path, its body, its item ids (each with quantity 1), and, when the run
/// retries, the idempotency key it is sent with and the purchase id the API derives from that key.</summary>
public sealed record PlannedPurchase(int StoreId, int CustomerId, string Path, byte[] Body, int[] Items, string? IdempotencyKey, Guid Id);
