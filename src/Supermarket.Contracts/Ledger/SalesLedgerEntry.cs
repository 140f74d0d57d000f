using System.Buffers;

namespace Supermarket.Contracts.Ledger;

/// <summary>
/// The sales of one ledger entry, as the Purchases writer stores them in <c>sales_ledger.sales</c> and the Sales
/// aggregator reads them back: for every line, the store, the item and the quantity, each as an unsigned LEB128
/// varint (a line of the seeds' load takes 6-7 bytes instead of the 48 of a JSON object).
/// </summary>
/// <remarks>
/// The ledger is the read-only contract between the two services (docs/architecture.md, "Guarantees"): an entry is written in the
/// same transaction as the purchases it holds, and holds only the lines of purchases that transaction newly stored.
/// </remarks>
public static class SalesLedgerEntry
{
    public static byte[] Encode(IEnumerable<SaleLine> lines)
    {
        var buffer = new ArrayBufferWriter<byte>(1024);
        foreach (var line in lines)
        {
            WriteVarint(buffer, (ulong)line.StoreId);
            WriteVarint(buffer, (ulong)line.ItemId);
            WriteVarint(buffer, (ulong)line.Quantity);
        }

        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>Appends the lines of <paramref name="encoded"/> to <paramref name="lines"/>.</summary>
    public static void Decode(ReadOnlySpan<byte> encoded, List<SaleLine> lines)
    {
        var position = 0;
        while (position < encoded.Length)
        {
            var store = ReadVarint(encoded, ref position);
            var item = ReadVarint(encoded, ref position);
            var quantity = ReadVarint(encoded, ref position);
            lines.Add(new SaleLine(checked((int)store), checked((int)item), checked((long)quantity)));
        }
    }

    private static void WriteVarint(ArrayBufferWriter<byte> buffer, ulong value)
    {
        var span = buffer.GetSpan(10);
        var length = 0;
        while (value >= 0x80)
        {
            span[length++] = (byte)(value | 0x80);
            value >>= 7;
        }

        span[length++] = (byte)value;
        buffer.Advance(length);
    }

    private static ulong ReadVarint(ReadOnlySpan<byte> encoded, ref int position)
    {
        ulong value = 0;
        for (var shift = 0; shift < 64; shift += 7)
        {
            if (position >= encoded.Length)
            {
                throw new FormatException("A sales ledger entry ends inside a number.");
            }

            var next = encoded[position++];
            value |= (ulong)(next & 0x7F) << shift;
            if (next < 0x80)
            {
                return value;
            }
        }

        throw new FormatException("A sales ledger entry holds a number longer than 64 bits.");
    }
}
