using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics.X86;

namespace Supermarket.SalesCounting;

/// <summary>One day's sales packed for reading only: the same cells by store and by item, about a byte a cell each
/// (docs/architecture.md, "Sales over a range of days").</summary>
internal sealed class SealedDay
{
    /// <summary>A store that sold one item in this many is a bitmap: then at most two bytes a cell, a list's about one.</summary>
    public const int BitmapDensity = 16;

    // A list's cell: one byte, the distance from the previous key in its low bits and the units in the others, while
    // both fit; else a 0 byte, then both as varints.
    private const int DistanceBits = 5;
    private const int DistanceMask = (1 << DistanceBits) - 1;
    private const int UnitsLimit = 1 << (8 - DistanceBits);
    private const int ShortExtraDistance = short.MaxValue;
    private const int NoBitmap = -1;

    // A store's records are marked every this many, so one item's units are found by decoding at most this many.
    private const int RecordsPerMark = 32;

    private readonly byte[] _byStore;
    private readonly int[] _marks;
    private readonly int[] _markStarts;
    private readonly int[] _storeStarts;
    private readonly int[] _bitmapOfStore;
    private readonly ulong[] _bitmaps;
    private readonly byte[] _byItem;
    private readonly int[] _itemStarts;
    private readonly int _bitmapWords;

    private SealedDay(byte[] byStore, int[] storeStarts, int[] bitmapOfStore, ulong[] bitmaps, int bitmapWords, int[] marks, int[] markStarts, byte[] byItem, int[] itemStarts, int cells)
    {
        (_byStore, _storeStarts, _bitmapOfStore, _bitmaps, _bitmapWords) = (byStore, storeStarts, bitmapOfStore, bitmaps, bitmapWords);
        (_marks, _markStarts, _byItem, _itemStarts, Cells) = (marks, markStarts, byItem, itemStarts, cells);
    }

    public int Cells { get; }

    public long Bytes => (8 * 24) + 72 + _byStore.Length + _byItem.Length + ((long)_bitmaps.Length * sizeof(ulong))
        + (((long)_storeStarts.Length + _bitmapOfStore.Length + _itemStarts.Length + _marks.Length + _markStarts.Length) * sizeof(int));

    /// <summary>Bit k for key k, in whole 512-bit vectors, bit <paramref name="keys"/> + 1 (zero) among them.</summary>
    public static int BitmapWords(int keys) => (((keys + 1) >> 9) + 1) << 3;

    /// <summary><paramref name="stores"/>[id - 1]: the store's keys (1 to <paramref name="keys"/>, ascending) and
    /// their positive units.</summary>
    public static SealedDay Pack(int keys, (int[] Keys, long[] Units)[] stores)
    {
        var maxStores = stores.Length;
        var bitmapWords = BitmapWords(keys);
        var bitmapOfStore = new int[maxStores];
        var bitmapCount = 0;
        for (var store = 0; store < maxStores; store++)
        {
            var sold = stores[store].Keys.Length;
            bitmapOfStore[store] = sold > 0 && (long)sold * BitmapDensity >= keys ? bitmapCount++ * bitmapWords : NoBitmap;
        }

        var bitmaps = new ulong[bitmapCount * bitmapWords];
        var byStore = new CellWriter(1 << 12);
        var storeStarts = new int[maxStores + 1];
        var marks = new List<int>();
        var markStarts = new int[maxStores + 1];
        var cellsOfKey = new int[keys + 2];
        for (var store = 1; store <= maxStores; store++)
        {
            var (storeKeys, storeUnits) = stores[store - 1];
            var bitmap = bitmapOfStore[store - 1];
            var previous = 0;
            var records = 0;
            for (var i = 0; i < storeKeys.Length; i++)
            {
                var key = storeKeys[i];
                if (bitmap == NoBitmap || storeUnits[i] > 1)
                {
                    if (records++ % RecordsPerMark == 0)
                    {
                        marks.Add(previous);
                        marks.Add(byStore.Length - storeStarts[store - 1]);
                    }
                }

                if (bitmap == NoBitmap)
                {
                    byStore.Write(key - previous, storeUnits[i]);
                    previous = key;
                }
                else
                {
                    bitmaps[bitmap + (key >> 6)] |= 1UL << key;
                    if (storeUnits[i] > 1)
                    {
                        byStore.WriteExtra(key - previous, storeUnits[i] - 1);
                        previous = key;
                    }
                }

                cellsOfKey[key + 1]++;
            }

            storeStarts[store] = byStore.Length;
            markStarts[store] = marks.Count / 2;
        }
        // Items' lists by a counting sort of the cells on their key; stores go in ascending, so each list is in order.
        for (var key = 1; key <= keys + 1; key++)
        {
            cellsOfKey[key] += cellsOfKey[key - 1];
        }

        var cells = cellsOfKey[keys + 1];
        var storeOfCell = new int[cells];
        var unitsOfCell = new long[cells];
        var next = cellsOfKey.AsSpan(0, keys + 1).ToArray();
        for (var store = 1; store <= maxStores; store++)
        {
            var (storeKeys, storeUnits) = stores[store - 1];
            for (var i = 0; i < storeKeys.Length; i++)
            {
                var at = next[storeKeys[i]]++;
                storeOfCell[at] = store;
                unitsOfCell[at] = storeUnits[i];
            }
        }

        var byItem = new CellWriter(Math.Max(cells + (cells >> 3), 16));
        var itemStarts = new int[keys + 2];
        for (var key = 1; key <= keys; key++)
        {
            itemStarts[key] = byItem.Length;
            var previous = 0;
            for (var at = cellsOfKey[key]; at < cellsOfKey[key + 1]; at++)
            {
                byItem.Write(storeOfCell[at] - previous, unitsOfCell[at]);
                previous = storeOfCell[at];
            }
        }

        itemStarts[keys + 1] = byItem.Length;
        return new SealedDay(byStore.ToArray(), storeStarts, bitmapOfStore, bitmaps, bitmapWords, [.. marks], markStarts, byItem.ToArray(), itemStarts, cells);
    }

    /// <summary>The cells by store alone, as version 3 wrote them: <see cref="Read"/> packs them again.</summary>
    public void WriteTo(BinaryWriter writer)
    {
        for (var store = 1; store < _storeStarts.Length; store++)
        {
            var length = (long)(_storeStarts[store] - _storeStarts[store - 1]);
            writer.Write7BitEncodedInt64((length << 1) | (_bitmapOfStore[store - 1] == NoBitmap ? 0L : 1L));
        }

        writer.Write(_byStore);
        HeldArrays.RequireLittleEndian();
        writer.Write(MemoryMarshal.AsBytes(_bitmaps.AsSpan()));
    }

    /// <summary>Reads what <see cref="WriteTo"/> wrote, or with <paramref name="listsOnly"/> version 2 (every store
    /// a list), checking every cell.</summary>
    public static SealedDay Read(BinaryReader reader, int keys, int maxStores, bool listsOnly)
    {
        var storeStarts = new int[maxStores + 1];
        var isBitmap = new bool[maxStores];
        var bitmapCount = 0;
        for (var store = 1; store <= maxStores; store++)
        {
            var lengthAndKind = reader.Read7BitEncodedInt64();
            var length = listsOnly ? lengthAndKind : lengthAndKind >> 1;
            isBitmap[store - 1] = !listsOnly && (lengthAndKind & 1) == 1;
            bitmapCount += isBitmap[store - 1] ? 1 : 0;
            Require(length >= 0 && length <= int.MaxValue - storeStarts[store - 1] && length <= (long)keys * 20, "a store's length");
            storeStarts[store] = storeStarts[store - 1] + (int)length;
        }

        var byStore = reader.ReadBytes(storeStarts[maxStores]);
        Require(byStore.Length == storeStarts[maxStores], "the cells end early");
        var bitmapWords = BitmapWords(keys);
        var bitmaps = new ulong[bitmapCount * bitmapWords];
        HeldArrays.RequireLittleEndian();
        Require(reader.Read(MemoryMarshal.AsBytes(bitmaps.AsSpan())) == bitmaps.Length * sizeof(ulong), "the bitmaps end early");
        var stores = new (int[] Keys, long[] Units)[maxStores];
        var storeKeys = new List<int>();
        var storeUnits = new List<long>();
        var bitmap = 0;
        for (var store = 1; store <= maxStores; store++)
        {
            storeKeys.Clear();
            storeUnits.Clear();
            var (at, end, key) = (storeStarts[store - 1], storeStarts[store], 0L);
            if (isBitmap[store - 1])
            {
                var bits = bitmaps.AsSpan(bitmap++ * bitmapWords, bitmapWords);
                Require(OnlyKeys(bits, keys), "a key out of range");
                ForEachKey(bits, storeKeys, storeUnits);
                var cell = 0;
                while (at < end)
                {
                    Require(end - at >= sizeof(ushort), "a cell cut short");
                    var (distance, extra) = ((ulong)BinaryPrimitives.ReadUInt16LittleEndian(byStore.AsSpan(at)), 1L);
                    at += sizeof(ushort);
                    if (distance == 1)
                    {
                        Require(end - at >= sizeof(uint) + sizeof(long), "a cell cut short");
                        (distance, extra) = (BinaryPrimitives.ReadUInt32LittleEndian(byStore.AsSpan(at)), BinaryPrimitives.ReadInt64LittleEndian(byStore.AsSpan(at + sizeof(uint))));
                        at += sizeof(uint) + sizeof(long);
                    }
                    else
                    {
                        Require(distance % 2 == 0, "a cell out of range");
                        distance >>= 1;
                    }

                    Require(distance >= 1 && distance <= (ulong)(keys - key), "a key out of range");
                    Require(extra is >= 1 and < long.MaxValue, "units out of range");
                    key += (long)distance;
                    while (cell < storeKeys.Count && storeKeys[cell] < key)
                    {
                        cell++;
                    }

                    Require(cell < storeKeys.Count && storeKeys[cell] == key, "more units of an item not sold");
                    storeUnits[cell] += (long)extra;
                }

                Require(storeKeys.Count * BitmapDensity >= keys, "a bitmap of too few items");
            }
            else
            {
                while (at < end)
                {
                    int cell = byStore[at++];
                    var (distance, units) = (cell & DistanceMask) != 0
                        ? ((ulong)(cell & DistanceMask), (ulong)(cell >> DistanceBits))
                        : (ReadVarint(byStore, ref at, end), ReadVarint(byStore, ref at, end));
                    Require(distance >= 1 && distance <= (ulong)(keys - key), "a key out of range");
                    Require(units is >= 1 and <= long.MaxValue, "units out of range");
                    key += (long)distance;
                    storeKeys.Add((int)key);
                    storeUnits.Add((long)units);
                }
            }

            stores[store - 1] = (storeKeys.ToArray(), storeUnits.ToArray());
        }

        return Pack(keys, stores);

        static ulong ReadVarint(byte[] bytes, ref int at, int end)
        {
            ulong value = 0;
            for (var shift = 0; shift < 64; shift += 7)
            {
                Require(at < end, "a cell cut short");
                var part = bytes[at++];
                Require(shift < 63 || part <= 1, "a number too large");
                value |= (ulong)(part & 0x7F) << shift;
                if (part < 0x80)
                {
                    return value;
                }
            }

            throw new InvalidDataException("Sales by day cannot be loaded: a number too large.");
        }
    }

    /// <summary>As it is held, so <see cref="ReadHeld"/> takes it back without packing it again.</summary>
    public void WriteHeld(BinaryWriter writer)
    {
        writer.Write(Cells);
        HeldArrays.Write(writer, _storeStarts);
        HeldArrays.Write(writer, _byStore);
        HeldArrays.Write(writer, _bitmapOfStore);
        HeldArrays.Write(writer, _bitmaps);
        HeldArrays.Write(writer, _markStarts);
        HeldArrays.Write(writer, _marks);
        HeldArrays.Write(writer, _itemStarts);
        HeldArrays.Write(writer, _byItem);
    }

    /// <summary>The file's checksum vouches for the cells; every offset is checked here, so no reading of a damaged
    /// day can reach outside its arrays.</summary>
    public static SealedDay ReadHeld(HeldArrays arrays, int keys, int maxStores)
    {
        var cells = arrays.Reader.ReadInt32();
        var storeStarts = arrays.Read<int>();
        var byStore = arrays.Read<byte>();
        Require(cells >= 0 && storeStarts.Length == maxStores + 1 && Ascending(storeStarts, byStore.Length), "a store's start");
        var bitmapOfStore = arrays.Read<int>();
        var bitmaps = arrays.Read<ulong>();
        var bitmapWords = BitmapWords(keys);
        Require(bitmapOfStore.Length == maxStores && bitmaps.Length % bitmapWords == 0, "the bitmaps' size");
        foreach (var bitmap in bitmapOfStore)
        {
            Require(bitmap == NoBitmap || (bitmap >= 0 && bitmap % bitmapWords == 0 && bitmap <= bitmaps.Length - bitmapWords), "a bitmap's start");
            Require(bitmap == NoBitmap || OnlyKeys(bitmaps.AsSpan(bitmap, bitmapWords), keys), "a key out of range");
        }

        var markStarts = arrays.Read<int>();
        var marks = arrays.Read<int>();
        Require(markStarts.Length == maxStores + 1 && marks.Length % 2 == 0 && Ascending(markStarts, marks.Length / 2), "a store's marks");
        for (var store = 0; store < maxStores; store++)
        {
            for (var mark = markStarts[store]; mark < markStarts[store + 1]; mark++)
            {
                Require((uint)marks[2 * mark] <= (uint)keys && (uint)marks[(2 * mark) + 1] <= (uint)(storeStarts[store + 1] - storeStarts[store]), "a mark out of range");
            }
        }

        var itemStarts = arrays.Read<int>();
        var byItem = arrays.Read<byte>();
        Require(itemStarts.Length == 0 ? byItem.Length == 0 : itemStarts.Length == keys + 2 && Ascending(itemStarts, byItem.Length), "an item's start");
        return new SealedDay(byStore, storeStarts, bitmapOfStore, bitmaps, bitmapWords, marks, markStarts, byItem, itemStarts, cells);
    }

    /// <summary>Whether a bitmap holds keys 1 to <paramref name="keys"/> alone: a bit elsewhere would rank an item
    /// beyond this shard's.</summary>
    internal static bool OnlyKeys(ReadOnlySpan<ulong> bits, int keys) =>
        (bits[0] & 1) == 0 && bits[(keys + 1) >> 6] >> ((keys + 1) & 63) == 0 && !bits[(((keys + 1) >> 6) + 1)..].ContainsAnyExcept(0UL);

    internal static bool Ascending(int[] starts, int end)
    {
        if (starts is not [0, ..] || starts[^1] != end)
        {
            return false;
        }

        for (var i = 1; i < starts.Length; i++)
        {
            if (starts[i] < starts[i - 1])
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>A day of a block has none.</summary>
    public bool HasItemLists => _itemStarts.Length != 0;

    private static void ForEachKey(ReadOnlySpan<ulong> bits, List<int> keys, List<long> units)
    {
        for (var word = 0; word < bits.Length; word++)
        {
            for (var set = bits[word]; set != 0; set &= set - 1)
            {
                keys.Add((word << 6) + BitOperations.TrailingZeroCount(set));
                units.Add(1);
            }
        }
    }

    private static void Require(bool holds, string what)
    {
        if (!holds)
        {
            throw new InvalidDataException($"Sales by day cannot be loaded: {what}.");
        }
    }

    public void AddStoreTo(int storeId, BitSlicedCounts counts)
    {
        var reader = new CellReader(_byStore, _storeStarts[storeId - 1], _storeStarts[storeId]);
        var bitmap = _bitmapOfStore[storeId - 1];
        if (bitmap == NoBitmap)
        {
            while (reader.Next(out var key, out var units))
            {
                counts.Add(key, units);
            }

            return;
        }

        counts.Add(_bitmaps, bitmap);
        var extras = _byStore.AsSpan(_storeStarts[storeId - 1], _storeStarts[storeId] - _storeStarts[storeId - 1]);
        var at = 0;
        var item = 0;
        while (at < extras.Length)
        {
            var cell = BinaryPrimitives.ReadUInt16LittleEndian(extras[at..]);
            at += sizeof(ushort);
            if ((cell & 1) == 0)
            {
                item += cell >> 1;
                counts.AddOne(item);
                continue;
            }

            item += (int)BinaryPrimitives.ReadUInt32LittleEndian(extras[at..]);
            counts.Add(item, BinaryPrimitives.ReadInt64LittleEndian(extras[(at + sizeof(uint))..]));
            at += sizeof(uint) + sizeof(long);
        }
    }

    /// <summary>For a day whose lists by item a <see cref="SealedBlock"/> holds.</summary>
    public SealedDay WithoutItemLists() => new(_byStore, _storeStarts, _bitmapOfStore, _bitmaps, _bitmapWords, _marks, _markStarts, [], [], Cells);

    /// <summary>For a day whose lists by item are gone: read from the cells by store, a bit of each bitmap and a
    /// decode from the nearest mark.</summary>
    public unsafe void AddItemOfEachStoreTo(int key, long sign, long[] storeSums)
    {
        var maxStores = _bitmapOfStore.Length;
        var (word, bit) = (key >> 6, 1UL << key);
        if (Sse.IsSupported)
        {
            // Each store's word is a miss of its own: asked for all at once, they overlap.
            fixed (ulong* bitmaps = _bitmaps)
            {
                for (var store = 0; store < maxStores; store++)
                {
                    if (_bitmapOfStore[store] != NoBitmap)
                    {
                        Sse.Prefetch0(bitmaps + _bitmapOfStore[store] + word);
                    }
                }
            }
        }

        for (var store = 0; store < maxStores; store++)
        {
            var bitmap = _bitmapOfStore[store];
            long units;
            if (bitmap == NoBitmap)
            {
                units = RecordOf(store, key, extras: false);
            }
            else if ((_bitmaps[bitmap + word] & bit) != 0)
            {
                units = 1 + RecordOf(store, key, extras: true);
            }
            else
            {
                continue;
            }

            storeSums[store] += sign * units;
        }
    }

    private long RecordOf(int store, int key, bool extras)
    {
        var (mark, end) = (_markStarts[store], _markStarts[store + 1]);
        if (mark == end)
        {
            return 0;
        }

        // The last mark after a key below this one: the key is among the records from there to the next mark.
        while (mark + 1 < end && _marks[2 * (mark + 1)] < key)
        {
            mark++;
        }

        var reader = new CellReader(_byStore, _storeStarts[store] + _marks[(2 * mark) + 1], _storeStarts[store + 1], _marks[2 * mark]);
        while (extras ? reader.NextExtra(out var found, out var units) : reader.Next(out found, out units))
        {
            if (found >= key)
            {
                return found == key ? units : 0;
            }
        }

        return 0;
    }

    /// <summary>A hint: it changes nothing.</summary>
    public unsafe void PrefetchItemStart(int key)
    {
        if (Sse.IsSupported)
        {
            fixed (int* starts = _itemStarts)
            {
                Sse.Prefetch0(starts + key);
            }
        }
    }

    /// <summary>Once <see cref="PrefetchItemStart"/> brought the start in; a hint.</summary>
    public unsafe void PrefetchItemList(int key)
    {
        if (Sse.IsSupported)
        {
            fixed (byte* cells = _byItem)
            {
                Sse.Prefetch0(cells + _itemStarts[key]);
            }
        }
    }

    public void AddItemTo(int key, long[] storeSums)
    {
        var reader = new CellReader(_byItem, _itemStarts[key], _itemStarts[key + 1]);
        while (reader.Next(out var store, out var units))
        {
            storeSums[store - 1] += units;
        }
    }

    /// <summary>Keys in ascending order.</summary>
    public void ForEachInStore<TVisitor>(int storeId, ref TVisitor visit)
        where TVisitor : struct, IItemUnitsVisitor
    {
        var reader = new CellReader(_byStore, _storeStarts[storeId - 1], _storeStarts[storeId]);
        var bitmap = _bitmapOfStore[storeId - 1];
        if (bitmap == NoBitmap)
        {
            while (reader.Next(out var key, out var units))
            {
                visit.Visit(key, units);
            }

            return;
        }

        var bits = _bitmaps.AsSpan(bitmap, _bitmapWords);
        var hasExtra = reader.NextExtra(out var extraKey, out var extra);
        for (var word = 0; word < bits.Length; word++)
        {
            for (var set = bits[word]; set != 0; set &= set - 1)
            {
                var key = (word << 6) + BitOperations.TrailingZeroCount(set);
                if (hasExtra && extraKey == key)
                {
                    visit.Visit(key, 1 + extra);
                    hasExtra = reader.NextExtra(out extraKey, out extra);
                }
                else
                {
                    visit.Visit(key, 1);
                }
            }
        }
    }

    internal struct CellWriter(int capacity)
    {
        private byte[] _bytes = new byte[capacity];

        public int Length { get; private set; }

        public void Write(int distance, long units)
        {
            if (_bytes.Length - Length < 16)
            {
                Array.Resize(ref _bytes, _bytes.Length * 2);
            }

            if (distance <= DistanceMask && units < UnitsLimit)
            {
                _bytes[Length++] = (byte)(distance | (int)(units << DistanceBits));
                return;
            }

            _bytes[Length++] = 0;
            WriteVarint((ulong)distance);
            WriteVarint((ulong)units);
        }

        /// <summary>A bitmap's units beyond the first: the distance shifted left by one in two bytes while they are one
        /// and it fits, else 1 in two bytes, the distance in four and the units in eight.</summary>
        public void WriteExtra(int distance, long extra)
        {
            if (_bytes.Length - Length < 16)
            {
                Array.Resize(ref _bytes, _bytes.Length * 2);
            }

            if (extra == 1 && distance <= ShortExtraDistance)
            {
                BinaryPrimitives.WriteUInt16LittleEndian(_bytes.AsSpan(Length), (ushort)(distance << 1));
                Length += sizeof(ushort);
                return;
            }

            BinaryPrimitives.WriteUInt16LittleEndian(_bytes.AsSpan(Length), 1);
            BinaryPrimitives.WriteUInt32LittleEndian(_bytes.AsSpan(Length + sizeof(ushort)), (uint)distance);
            BinaryPrimitives.WriteInt64LittleEndian(_bytes.AsSpan(Length + sizeof(ushort) + sizeof(uint)), extra);
            Length += sizeof(ushort) + sizeof(uint) + sizeof(long);
        }

        public readonly byte[] ToArray() => _bytes.AsSpan(0, Length).ToArray();

        public void WriteBytes(ReadOnlySpan<byte> bytes)
        {
            if (_bytes.Length - Length < bytes.Length)
            {
                Array.Resize(ref _bytes, Math.Max(_bytes.Length * 2, Length + bytes.Length));
            }

            bytes.CopyTo(_bytes.AsSpan(Length));
            Length += bytes.Length;
        }

        private void WriteVarint(ulong value)
        {
            while (value >= 0x80)
            {
                _bytes[Length++] = (byte)(value | 0x80);
                value >>= 7;
            }

            _bytes[Length++] = (byte)value;
        }
    }

    internal ref struct CellReader(byte[] bytes, int start, int end, int key = 0)
    {
        private readonly ReadOnlySpan<byte> _bytes = bytes.AsSpan(0, end);
        private int _at = start;
        private int _key = key;

        public bool Next(out int key, out long units)
        {
            if (_at >= _bytes.Length)
            {
                (key, units) = (0, 0);
                return false;
            }

            int cell = _bytes[_at++];
            if ((cell & DistanceMask) != 0)
            {
                key = _key += cell & DistanceMask;
                units = cell >> DistanceBits;
                return true;
            }

            key = _key += (int)ReadVarint();
            units = (long)ReadVarint();
            return true;
        }

        /// <summary>Reads what <see cref="CellWriter.WriteExtra"/> wrote.</summary>
        public bool NextExtra(out int key, out long extra)
        {
            if (_at >= _bytes.Length)
            {
                (key, extra) = (0, 0);
                return false;
            }

            var cell = BinaryPrimitives.ReadUInt16LittleEndian(_bytes[_at..]);
            _at += sizeof(ushort);
            if ((cell & 1) == 0)
            {
                (key, extra) = (_key += cell >> 1, 1);
                return true;
            }

            key = _key += (int)BinaryPrimitives.ReadUInt32LittleEndian(_bytes[_at..]);
            extra = BinaryPrimitives.ReadInt64LittleEndian(_bytes[(_at + sizeof(uint))..]);
            _at += sizeof(uint) + sizeof(long);
            return true;
        }

        private ulong ReadVarint()
        {
            ulong value = 0;
            for (var shift = 0; ; shift += 7)
            {
                var part = _bytes[_at++];
                value |= (ulong)(part & 0x7F) << shift;
                if (part < 0x80)
                {
                    return value;
                }
            }
        }
    }
}
