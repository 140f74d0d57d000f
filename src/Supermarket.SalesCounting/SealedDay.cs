using System.Runtime.Intrinsics.X86;

namespace Supermarket.SalesCounting;

/// <summary>
/// One day's sales packed for reading only, for <see cref="SalesByDay"/>: the same (store, item, units) cells twice,
/// by store (each store's items in order) and by item (each item's stores in order), about a byte a cell each.
/// </summary>
/// <remarks>
/// A cell is the distance from the previous key in its list (items' keys by store, store ids by item) and its units:
/// one byte while the distance is below 32 and the units below 8 (the seeds' load sells ~12,600 of 100,000 items at a
/// store a day, one unit at a time, so distances average 8), otherwise a 0 byte, then both as varints. Hash tables held
/// ~14 bytes a cell (docs/architecture.md, "Sales over a range of days").
/// </remarks>
internal sealed class SealedDay
{
    private const int DistanceBits = 5;
    private const int DistanceMask = (1 << DistanceBits) - 1;
    private const int UnitsLimit = 1 << (8 - DistanceBits);

    private readonly byte[] _byStore;
    private readonly int[] _storeStarts;
    private readonly byte[] _byItem;
    private readonly int[] _itemStarts;

    private SealedDay(byte[] byStore, int[] storeStarts, byte[] byItem, int[] itemStarts, int cells)
    {
        (_byStore, _storeStarts, _byItem, _itemStarts, Cells) = (byStore, storeStarts, byItem, itemStarts, cells);
    }

    /// <summary>How many (store, item) pairs sold.</summary>
    public int Cells { get; }

    /// <summary>The memory this one holds.</summary>
    public long Bytes => 4 * 24 + 48 + _byStore.Length + _byItem.Length + (((long)_storeStarts.Length + _itemStarts.Length) * sizeof(int));

    /// <summary>Packs the cells of stores 1 to <c>stores.Length</c> (<paramref name="stores"/>[id - 1]: the store's
    /// keys, from 1 to <paramref name="keys"/>, in ascending order, and their positive units).</summary>
    public static SealedDay Pack(int keys, (int[] Keys, long[] Units)[] stores)
    {
        var maxStores = stores.Length;
        var byStore = new CellWriter(1 << 12);
        var storeStarts = new int[maxStores + 1];
        var cellsOfKey = new int[keys + 2];
        for (var store = 1; store <= maxStores; store++)
        {
            var (storeKeys, storeUnits) = stores[store - 1];
            var previous = 0;
            for (var i = 0; i < storeKeys.Length; i++)
            {
                var key = storeKeys[i];
                byStore.Write(key - previous, storeUnits[i]);
                previous = key;
                cellsOfKey[key + 1]++;
            }

            storeStarts[store] = byStore.Length;
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
        return new SealedDay(byStore.ToArray(), storeStarts, byItem.ToArray(), itemStarts, cells);
    }

    /// <summary>Writes the cells by store as they are packed (each store's length, then the bytes);
    /// <see cref="Read"/> reads them back and packs the cells by item again.</summary>
    public void WriteTo(BinaryWriter writer)
    {
        for (var store = 1; store < _storeStarts.Length; store++)
        {
            writer.Write7BitEncodedInt(_storeStarts[store] - _storeStarts[store - 1]);
        }

        writer.Write(_byStore);
    }

    /// <summary>Reads what <see cref="WriteTo"/> wrote for stores 1 to <paramref name="maxStores"/> and keys 1 to
    /// <paramref name="keys"/>, checking every cell.</summary>
    /// <exception cref="InvalidDataException">A length or a cell is out of range.</exception>
    public static SealedDay Read(BinaryReader reader, int keys, int maxStores)
    {
        var storeStarts = new int[maxStores + 1];
        for (var store = 1; store <= maxStores; store++)
        {
            var length = reader.Read7BitEncodedInt();
            Require(length >= 0 && length <= int.MaxValue - storeStarts[store - 1] && length <= (long)keys * 20, "a store's length");
            storeStarts[store] = storeStarts[store - 1] + length;
        }

        var byStore = reader.ReadBytes(storeStarts[maxStores]);
        Require(byStore.Length == storeStarts[maxStores], "the cells end early");
        var stores = new (int[] Keys, long[] Units)[maxStores];
        var storeKeys = new List<int>();
        var storeUnits = new List<long>();
        for (var store = 1; store <= maxStores; store++)
        {
            storeKeys.Clear();
            storeUnits.Clear();
            var (at, end, key) = (storeStarts[store - 1], storeStarts[store], 0L);
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

    private static void Require(bool holds, string what)
    {
        if (!holds)
        {
            throw new InvalidDataException($"Sales by day cannot be loaded: {what}.");
        }
    }

    /// <summary>Adds a store's units of each item to <paramref name="sums"/> (indexed by key), appending to
    /// <paramref name="touched"/> the keys whose sum was zero before.</summary>
    public void AddStoreTo(int storeId, long[] sums, int[] touched, ref int touchedCount)
    {
        var reader = new CellReader(_byStore, _storeStarts[storeId - 1], _storeStarts[storeId]);
        while (reader.Next(out var key, out var units))
        {
            // Without a branch: whether a key is new to a range of a few days is a coin toss the CPU mispredicts.
            ref var sum = ref sums[key];
            touched[touchedCount] = key;
            touchedCount += sum == 0 ? 1 : 0;
            sum += units;
        }
    }

    /// <summary>Offers a store's items to <paramref name="ranking"/> (ids are keys less one plus <paramref name="firstItem"/>).</summary>
    public void OfferStoreTo(int storeId, ref RangeRanking ranking, int firstItem)
    {
        var reader = new CellReader(_byStore, _storeStarts[storeId - 1], _storeStarts[storeId]);
        while (reader.Next(out var key, out var units))
        {
            ranking.Offer(key - 1 + firstItem, units);
        }
    }

    /// <summary>Asks the CPU to bring in where the list of the item whose key is <paramref name="key"/> starts, without
    /// waiting for it (a hint: it changes nothing).</summary>
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

    /// <summary>Asks the CPU to bring in the first bytes of the item's list, once its start is at hand (a hint).</summary>
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

    /// <summary>Adds each store's units of the item whose key is <paramref name="key"/> to
    /// <paramref name="storeSums"/> (indexed by store id less one).</summary>
    public void AddItemTo(int key, long[] storeSums)
    {
        var reader = new CellReader(_byItem, _itemStarts[key], _itemStarts[key + 1]);
        while (reader.Next(out var store, out var units))
        {
            storeSums[store - 1] += units;
        }
    }

    /// <summary>Calls <paramref name="visit"/> with a store's keys, in ascending order, and their units.</summary>
    public void ForEachInStore<TVisitor>(int storeId, ref TVisitor visit)
        where TVisitor : struct, IItemUnitsVisitor
    {
        var reader = new CellReader(_byStore, _storeStarts[storeId - 1], _storeStarts[storeId]);
        while (reader.Next(out var key, out var units))
        {
            visit.Visit(key, units);
        }
    }

    private struct CellWriter(int capacity)
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

        public readonly byte[] ToArray() => _bytes.AsSpan(0, Length).ToArray();

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

    private ref struct CellReader(byte[] bytes, int start, int end)
    {
        private readonly ReadOnlySpan<byte> _bytes = bytes.AsSpan(0, end);
        private int _at = start;
        private int _key;

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
