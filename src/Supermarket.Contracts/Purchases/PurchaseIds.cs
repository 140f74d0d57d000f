using System.Security.Cryptography;
using System.Text;

namespace Supermarket.Contracts.Purchases;

/// <summary>The same store and <c>Idempotency-Key</c> give the same id (the primary key downstream), so a retry
/// cannot record a purchase twice. A UUIDv8 led by the date's Unix milliseconds: ids sort roughly by time.</summary>
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
