using System.Buffers;
using Supermarket.Contracts.Sales;

namespace Supermarket.Database.Ledger;

/// <summary>The format of <c>sales_ledger.sales</c> (docs/architecture.md, "A purchase's path"). Entries are never
/// rewritten, so every format stays readable: format 0 never starts with 0x00, as store ids start at 1.</summary>
public static class SalesLedgerEntry
{
    private const byte Marker = 0x00;
    private const byte DatedFormat = 0x01;
    private const byte DatingFormat = 0x02;

    public static byte[] Encode(IEnumerable<SaleLine> lines) => Encode(lines, DatedFormat);

    /// <summary>Format 2 dates sales of format 0 (migration 0010) and adds none: <see cref="Decode"/> reads no line of
    /// it, <see cref="DecodeDays"/> its lines, to count into their days what all time holds already.</summary>
    public static byte[] EncodeDating(IEnumerable<SaleLine> lines) => Encode(lines, DatingFormat);

    public static bool IsDating(ReadOnlySpan<byte> encoded) => encoded is [Marker, DatingFormat, ..];

    public static bool IsUndated(ReadOnlySpan<byte> encoded) => encoded is [not Marker, ..];

    public static void DecodeDays(ReadOnlySpan<byte> encoded, List<SaleLine> lines)
    {
        if (!IsDating(encoded))
        {
            throw new FormatException("The sales ledger entry is not a dating entry.");
        }

        DecodeGroups(encoded, lines);
    }

    private static byte[] Encode(IEnumerable<SaleLine> lines, byte format)
    {
        var sorted = lines.ToArray();
        foreach (var line in sorted)
        {
            if (line.Day == default)
            {
                throw new ArgumentException($"The sales ledger's line of item {line.ItemId} at store {line.StoreId} has no day.", nameof(lines));
            }
        }

        if (sorted.Length == 0)
        {
            return [];
        }

        if (Array.Exists(sorted, line => line.Day != sorted[0].Day))
        {
            sorted = [.. sorted.OrderBy(line => line.Day)];
        }

        var buffer = new ArrayBufferWriter<byte>(1024);
        buffer.Write([Marker, format]);
        for (var first = 0; first < sorted.Length;)
        {
            var day = sorted[first].Day;
            var end = first;
            while (end < sorted.Length && sorted[end].Day == day)
            {
                end++;
            }

            WriteVarint(buffer, (ulong)day.DayNumber);
            WriteVarint(buffer, (ulong)(end - first));
            for (; first < end; first++)
            {
                WriteVarint(buffer, (ulong)sorted[first].StoreId);
                WriteVarint(buffer, (ulong)sorted[first].ItemId);
                WriteVarint(buffer, (ulong)sorted[first].Quantity);
            }
        }

        return buffer.WrittenSpan.ToArray();
    }

    /// <summary>A format this version does not know throws, rather than be counted wrong or passed over.</summary>
    public static void Decode(ReadOnlySpan<byte> encoded, List<SaleLine> lines)
    {
        if (encoded.IsEmpty)
        {
            return;
        }

        if (encoded[0] != Marker)
        {
            DecodeUndated(encoded, lines);
            return;
        }

        if (IsDating(encoded))
        {
            return;
        }

        if (encoded.Length < 2 || encoded[1] != DatedFormat)
        {
            throw new FormatException($"A sales ledger entry of format {(encoded.Length < 2 ? "(none)" : encoded[1].ToString(System.Globalization.CultureInfo.InvariantCulture))}, which this version cannot read.");
        }

        DecodeGroups(encoded, lines);
    }

    private static void DecodeGroups(ReadOnlySpan<byte> encoded, List<SaleLine> lines)
    {
        var position = 2;
        while (position < encoded.Length)
        {
            var dayNumber = ReadVarint(encoded, ref position);
            if (dayNumber < 1 || dayNumber > (ulong)DateOnly.MaxValue.DayNumber)
            {
                throw new FormatException($"A sales ledger entry holds day number {dayNumber}, no calendar day.");
            }

            var day = DateOnly.FromDayNumber((int)dayNumber);
            var count = ReadVarint(encoded, ref position);
            for (ulong i = 0; i < count; i++)
            {
                lines.Add(ReadLine(encoded, ref position, day));
            }
        }
    }

    private static void DecodeUndated(ReadOnlySpan<byte> encoded, List<SaleLine> lines)
    {
        var position = 0;
        while (position < encoded.Length)
        {
            lines.Add(ReadLine(encoded, ref position, default));
        }
    }

    private static SaleLine ReadLine(ReadOnlySpan<byte> encoded, ref int position, DateOnly day)
    {
        var store = ReadVarint(encoded, ref position);
        var item = ReadVarint(encoded, ref position);
        var quantity = ReadVarint(encoded, ref position);
        return new SaleLine(checked((int)store), checked((int)item), checked((long)quantity), day);
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
