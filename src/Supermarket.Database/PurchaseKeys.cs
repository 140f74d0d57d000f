namespace Supermarket.Database;

/// <summary>Big-endian (RFC 9562), so a UUIDv7 key sorts by time; the default ToByteArray() would not.</summary>
public static class PurchaseKeys
{
    public static byte[] ToKey(Guid purchaseId) => purchaseId.ToByteArray(bigEndian: true);

    public static Guid FromKey(byte[] key) => new(key, bigEndian: true);
}
