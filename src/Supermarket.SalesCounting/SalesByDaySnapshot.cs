using System.Buffers.Binary;
using Supermarket.Contracts.Catalog;

namespace Supermarket.SalesCounting;

/// <summary>
/// <see cref="SalesByDay"/> as of one moment, taken on its recording thread (<see cref="SalesByDay.TakeSnapshot"/>) at
/// the cost of copying the lines not yet packed, since packed days never change; written to a file afterwards, on any
/// thread. <see cref="SalesByDay.Load"/> reads the file back.
/// </summary>
/// <remarks>The file: a magic, then, under an XXH3 checksum at its end, the version, the items and stores, the last day
/// dropped and each day: its number, its packed cells by store as they are held, and the lines recorded since it was
/// packed. A packed day is written as it is, without unpacking, sorting or compressing it again.</remarks>
public sealed class SalesByDaySnapshot
{
    internal const int Magic = 0x32444253; // "SBD2"
    internal const int Version = 3;

    /// <summary>The version before a store's items could be held as a bitmap: read, no longer written.</summary>
    internal const int ListsOnlyVersion = 2;

    private readonly ItemRange _items;
    private readonly int _maxStores;
    private readonly int _lastDropped;
    private readonly Day[] _days;

    internal SalesByDaySnapshot(ItemRange items, int maxStores, int lastDropped, Day[] days) =>
        (_items, _maxStores, _lastDropped, _days) = (items, maxStores, lastDropped, days);

    /// <summary>Writes the file to <paramref name="destination"/>.</summary>
    public void WriteTo(Stream destination)
    {
        Span<byte> number = stackalloc byte[sizeof(ulong)];
        BinaryPrimitives.WriteInt32LittleEndian(number, Magic);
        destination.Write(number[..sizeof(int)]);
        var checksummed = ChecksummedStream.Writing(destination);
        using (var writer = new BinaryWriter(new BufferedStream(checksummed, 1 << 16)))
        {
            writer.Write(Version);
            writer.Write(_items.First);
            writer.Write(_items.Last);
            writer.Write(_maxStores);
            writer.Write(_lastDropped);
            writer.Write(_days.Length);
            foreach (var day in _days)
            {
                writer.Write(day.Number);
                writer.Write(day.Sealed is not null);
                day.Sealed?.WriteTo(writer);
                writer.Write(day.Tables.Length);
                foreach (var (store, keys, units) in day.Tables)
                {
                    writer.Write7BitEncodedInt(store);
                    writer.Write7BitEncodedInt(keys.Length);
                    for (var i = 0; i < keys.Length; i++)
                    {
                        writer.Write7BitEncodedInt(keys[i]);
                        writer.Write7BitEncodedInt64(units[i]);
                    }
                }
            }
        }

        BinaryPrimitives.WriteUInt64LittleEndian(number, checksummed.Checksum);
        destination.Write(number);
    }

    /// <summary>One day: its packed cells (null if none) and each store's lines recorded since, as
    /// (store id, keys, units).</summary>
    internal readonly record struct Day(int Number, SealedDay? Sealed, (int Store, int[] Keys, long[] Units)[] Tables);
}
