namespace Supermarket.Database;

/// <summary>How a purchase id is stored: the GUID's big-endian (RFC 9562) bytes, which for a UUIDv7 sort by time.
/// .NET's default <see cref="Guid.ToByteArray()"/> is little-endian in its first fields and would not.</summary>
public static class PurchaseKeys
{
    public static byte[] ToKey(Guid purchaseId) => purchaseId.ToByteArray(bigEndian: true);

    public static Guid FromKey(byte[] key) => new(key, bigEndian: true);
}
