using System.Buffers;
using Supermarket.Contracts.Sales;

namespace Supermarket.Database.Ledger;

/// <summary>
/// The sales of one ledger entry, as the Purchases writer stores them in <c>sales_ledger.sales</c> and the Sales
/// aggregator reads them back. Written as format 1: the bytes 0x00 0x01, then groups of one day's lines (the day as
/// <see cref="DateOnly.DayNumber"/>, the group's line count, then store, item and quantity of each line), every number an
/// unsigned LEB128 varint (a line of the seeds' load takes 6-7 bytes instead of the 48 of a JSON object). Format 0, the
/// entries written before lines carried their day, is the bare triples; it never starts with 0x00 (store ids start at
/// 1), so both are read (docs/architecture.md, "The sales ledger").
/// </summary>
/// <remarks>
/// The ledger is the read-only contract between the two services (docs/architecture.md, "Guarantees"): an entry is written in the
/// same transaction as the purchases it holds, and holds only the lines of purchases that transaction newly stored.
/// </remarks>
public static class SalesLedgerEntry
{
    private const byte Marker = 0x00;
    private const byte DatedFormat = 0x01;
    private const byte DatingFormat = 0x02;

    /// <summary>Format 1; every line must carry its day. An entry without lines is empty, in either format.</summary>
    public static byte[] Encode(IEnumerable<SaleLine> lines) => Encode(lines, DatedFormat);

    /// <summary>
    /// Format 2, a dating entry: the days of sales counted before entries carried their day (format 0), as the
    /// migration that upgrades a database finds them in its purchases. It adds no sale: <see cref="Decode"/> reads none
    /// from it, and only <see cref="DecodeDays"/> gives its lines, to count into their days what all time holds already.
    /// </summary>
    public static byte[] EncodeDating(IEnumerable<SaleLine> lines) => Encode(lines, DatingFormat);

    /// <summary>Whether the entry is a dating entry (<see cref="EncodeDating"/>).</summary>
    public static bool IsDating(ReadOnlySpan<byte> encoded) => encoded is [Marker, DatingFormat, ..];

    /// <summary>Whether the entry's lines carry no day (format 0, written before entries carried their day).</summary>
    public static bool IsUndated(ReadOnlySpan<byte> encoded) => encoded is [not Marker, ..];

    /// <summary>Appends the lines of a dating entry to <paramref name="lines"/>.</summary>
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
        // A writer's entry holds a few hundred lines of a day or two: sorted by day, each day is one group.
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
            // Stable: each day's lines keep their order.
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

    /// <summary>Appends the sales of <paramref name="encoded"/> to <paramref name="lines"/>, of format 0 or 1 (a dating
    /// entry holds none); a format this version does not know throws, rather than be counted wrong or passed over.</summary>
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

    /// <summary>Reads the day groups that follow a format's two bytes.</summary>
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
