using System.Security.Cryptography;
using System.Text;

namespace Supermarket.Contracts.Purchases;

/// <summary>
/// The id of a purchase a store sent with an <c>Idempotency-Key</c>: the same store and key always give the same
/// id, so a store that retries after a timeout or a 503 cannot record the purchase twice (the id is the primary key
/// downstream). Clients compute it too, to check what was stored.
/// </summary>
/// <remarks>
/// A UUIDv8 (RFC 9562) whose first 48 bits are the purchase date's Unix milliseconds, like a UUIDv7's timestamp, so
/// such ids still sort roughly by time; the other bits come from SHA-256 of the store and the key.
/// </remarks>
public static class PurchaseIds
{
    public static Guid ForIdempotencyKey(int storeId, DateOnly date, string key)
    {
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(Encoding.UTF8.GetBytes($"{storeId}:{key}"), hash);
        Span<byte> id = stackalloc byte[16];
        var milliseconds = new DateTimeOffset(date.ToDateTime(TimeOnly.MinValue), TimeSpan.Zero).ToUnixTimeMilliseconds();
        for (var i = 0; i < 6; i++)
        {
            id[i] = (byte)(milliseconds >> (8 * (5 - i)));
        }

        hash[6..16].CopyTo(id[6..]);
        id[6] = (byte)(0x80 | (id[6] & 0x0F)); // version 8
        id[8] = (byte)(0x80 | (id[8] & 0x3F)); // RFC 9562 variant
        return new Guid(id, bigEndian: true);
    }
}
