using System.Buffers.Binary;
using Supermarket.Contracts.Catalog;

namespace Supermarket.SalesCounting;

/// <summary><see cref="SalesByDay"/> as of one moment, taken on its recording thread and written afterwards on any;
/// <see cref="SalesByDay.Load"/> reads the file back.</summary>
/// <remarks>Packed days and blocks are written as they are held, in the file or each in a file of its own
/// (<see cref="PackedFiles"/>), so reading them back packs nothing again.</remarks>
public sealed class SalesByDaySnapshot
{
    internal const int Magic = 0x32444253; // "SBD2"
    internal const int Version = 4;

    /// <summary>Each packed day's cells by store alone: read, no longer written.</summary>
    internal const int CellsByStoreVersion = 3;

    /// <summary>Before a store's items could be a bitmap: read, no longer written.</summary>
    internal const int ListsOnlyVersion = 2;

    private readonly ItemRange _items;
    private readonly int _maxStores;
    private readonly int _lastDropped;
    private readonly Day[] _days;

    internal SalesByDaySnapshot(ItemRange items, int maxStores, int lastDropped, Day[] days) =>
        (_items, _maxStores, _lastDropped, _days) = (items, maxStores, lastDropped, days);

    /// <summary>Every packed day and block inside the file.</summary>
    public void WriteTo(Stream destination) => WriteTo(destination, files: null);

    /// <summary>Each packed day and block as the name of its file in <paramref name="files"/>, written there if new.
    /// Returns the names written.</summary>
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

    internal enum DayKind : byte
    {
        Empty,

        /// <summary>Its packed cells, lists by item included, follow.</summary>
        Packed,

        /// <summary>Its cells are one day of a block: the block's index and the day's in it follow.</summary>
        InBlock,
    }

    /// <summary><paramref name="Tables"/>: each store's lines recorded since the day was packed.</summary>
    internal readonly record struct Day(int Number, SealedDay? Sealed, (int Store, int[] Keys, long[] Units)[] Tables, SealedBlock? Block, int IndexInBlock, long BlockBytes);
}
