using System.Buffers.Binary;
using Supermarket.Contracts.Catalog;

namespace Supermarket.SalesCounting;

/// <summary>
/// <see cref="SalesByDay"/> as of one moment, taken on its recording thread (<see cref="SalesByDay.TakeSnapshot"/>) at
/// the cost of copying the lines not yet packed, since packed days never change; written to a file afterwards, on any
/// thread. <see cref="SalesByDay.Load"/> reads the file back.
/// </summary>
/// <remarks>The file: a magic, then, under an XXH3 checksum at its end, the version, the items and stores, the last day
/// dropped, the number of days, the blocks as they are held, and each day: its number, the block bytes it counts, and
/// its cells as they are held, or which block's day it is. Packed days and blocks are written as they are, so reading
/// them back packs nothing again, either in the file or each in a file of its own (<see cref="PackedFiles"/>); a day
/// with lines not yet packed is packed with them as it is written, into the file.</remarks>
public sealed class SalesByDaySnapshot
{
    internal const int Magic = 0x32444253; // "SBD2"
    internal const int Version = 4;

    /// <summary>The version that wrote each packed day's cells by store alone, which the reader packed again by item
    /// and into blocks: read, no longer written.</summary>
    internal const int CellsByStoreVersion = 3;

    /// <summary>The version before a store's items could be held as a bitmap: read, no longer written.</summary>
    internal const int ListsOnlyVersion = 2;

    private readonly ItemRange _items;
    private readonly int _maxStores;
    private readonly int _lastDropped;
    private readonly Day[] _days;

    internal SalesByDaySnapshot(ItemRange items, int maxStores, int lastDropped, Day[] days) =>
        (_items, _maxStores, _lastDropped, _days) = (items, maxStores, lastDropped, days);

    /// <summary>Writes the file to <paramref name="destination"/>, every packed day and block in it.</summary>
    public void WriteTo(Stream destination) => WriteTo(destination, files: null);

    /// <summary>Writes the file to <paramref name="destination"/>, each packed day and block as the name of its file
    /// in <paramref name="files"/>, written there if it is new. Returns the names it wrote into the file.</summary>
    public IReadOnlySet<string> WriteTo(Stream destination, PackedFiles? files)
    {
        var names = new HashSet<string>();
        Span<byte> number = stackalloc byte[sizeof(ulong)];
        BinaryPrimitives.WriteInt32LittleEndian(number, Magic);
        destination.Write(number[..sizeof(int)]);
        var checksummed = ChecksummedStream.Writing(destination);
        var writer = new BinaryWriter(new BufferedStream(checksummed, 1 << 16));
        using (writer)
        {
            writer.Write(Version);
            writer.Write(_items.First);
            writer.Write(_items.Last);
            writer.Write(_maxStores);
            writer.Write(_lastDropped);
            writer.Write(_days.Length);

            // The blocks of the days that still read their lists from one (a day with lines since leaves its block).
            var blocks = new Dictionary<SealedBlock, int>(ReferenceEqualityComparer.Instance);
            foreach (var day in _days)
            {
                if (day is { Block: { } block, Tables: [] })
                {
                    blocks.TryAdd(block, blocks.Count);
                }
            }

            writer.Write(blocks.Count);
            foreach (var block in blocks.Keys)
            {
                WritePacked(block, block.WriteHeld);
            }

            foreach (var day in _days)
            {
                writer.Write(day.Number);
                if (day.Tables.Length > 0)
                {
                    // Packed here, off the recording thread, as the day's next packing would: a day read back is packed.
                    var packed = SalesByDay.PackWith(day.Sealed, day.Tables, _items.Count, _maxStores);
                    writer.Write(day.BlockBytes + (day.Block is not null ? day.Sealed!.Bytes : 0));
                    writer.Write((byte)DayKind.Packed);
                    // Never in a file of its own: the day's next packing replaces it.
                    writer.Write(false);
                    packed.WriteHeld(writer);
                }
                else if (day.Block is { } block)
                {
                    writer.Write(day.BlockBytes);
                    writer.Write((byte)DayKind.InBlock);
                    writer.Write(blocks[block]);
                    writer.Write(day.IndexInBlock);
                }
                else
                {
                    writer.Write(day.BlockBytes);
                    writer.Write((byte)(day.Sealed is null ? DayKind.Empty : DayKind.Packed));
                    if (day.Sealed is { } packed)
                    {
                        WritePacked(packed, packed.WriteHeld);
                    }
                }
            }
        }

        BinaryPrimitives.WriteUInt64LittleEndian(number, checksummed.Checksum);
        destination.Write(number);
        return names;

        // Whether it is in a file, then the file's name or what it holds.
        void WritePacked(object packed, Action<BinaryWriter> write)
        {
            writer.Write(files is not null);
            if (files is null)
            {
                write(writer);
                return;
            }

            var name = files.NameOf(packed, write);
            names.Add(name);
            writer.Write(name);
        }
    }

    /// <summary>How a day of the file is held.</summary>
    internal enum DayKind : byte
    {
        /// <summary>No cells.</summary>
        Empty,

        /// <summary>Its packed cells, lists by item included, follow.</summary>
        Packed,

        /// <summary>Its cells are one day of a block: the block's index and the day's in it follow.</summary>
        InBlock,
    }

    /// <summary>One day: its packed cells (null if none), each store's lines recorded since, as (store id, keys,
    /// units), the block its lists by item are in (if any) and which day of it this is, and the bytes of blocks it
    /// counts as its own.</summary>
    internal readonly record struct Day(int Number, SealedDay? Sealed, (int Store, int[] Keys, long[] Units)[] Tables, SealedBlock? Block, int IndexInBlock, long BlockBytes);
}
