using System.Numerics;
using System.Runtime.Intrinsics.X86;

namespace Supermarket.SalesCounting;

/// <summary>Several packed days' totals of each item at each store and of each store's items, in place of the days'
/// lists by item (docs/architecture.md, "Sales over a range of days").</summary>
/// <remarks>It keeps its days' cells by store as packed (<see cref="Day"/>), so a day packed again or fallen out can be
/// taken off the totals.</remarks>
internal sealed class SealedBlock
{
    /// <summary>A day is a bit of a ranking's mask.</summary>
    public const int MaxDays = 32;

    /// <summary>An item's nibble for a store whose units are in the list after the nibbles.</summary>
    private const int InList = 15;

    private const int PlanesHold = (1 << StorePlanes) - 1;

    private const int StorePlanes = 4;
    private const int NoPlanes = -1;

    private readonly byte[] _cells;
    private readonly int[] _itemStarts;
    private readonly ulong[] _nibbles;
    private readonly SealedDay[] _days;
    private readonly int _maxStores;
    private readonly StoreTotals _stores;

    private SealedBlock(byte[] cells, int[] itemStarts, ulong[] nibbles, SealedDay[] days, int maxStores, StoreTotals stores) =>
        (_cells, _itemStarts, _nibbles, _days, _maxStores, _stores) = (cells, itemStarts, nibbles, days, maxStores, stores);

    public int Days => _days.Length;

    /// <summary>But for its days' cells by store: the days count those.</summary>
    public long Bytes => (4 * 24) + 56 + _cells.Length + ((long)_itemStarts.Length * sizeof(int)) + ((long)_nibbles.Length * sizeof(ulong)) + _stores.Bytes;

    public uint AllDays => Days == MaxDays ? uint.MaxValue : (1u << Days) - 1;

    public SealedDay Day(int index) => _days[index];

    /// <summary>Each of <paramref name="days"/> must still hold its lists by item.</summary>
    public static SealedBlock Pack(int keys, int maxStores, IReadOnlyList<SealedDay> days)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(days.Count, MaxDays, nameof(days));
        var nibbleBytes = (maxStores + 1) >> 1;
        var sums = new long[maxStores];
        var cells = new SealedDay.CellWriter(Math.Max(keys * 64, 16));
        var itemStarts = new int[keys + 2];
        var nibbles = new ulong[(keys >> 6) + 1];
        var nibbleRow = new byte[nibbleBytes];
        for (var key = 1; key <= keys; key++)
        {
            itemStarts[key] = cells.Length;
            foreach (var day in days)
            {
                day.AddItemTo(key, sums);
            }

            var stores = 0;
            foreach (var units in sums)
            {
                stores += units > 0 ? 1 : 0;
            }

            // Sold at one store in four or more: nibbles, the stores past what a nibble holds listed after them.
            var listedFrom = 1L;
            if (stores * 4 >= maxStores)
            {
                nibbles[key >> 6] |= 1UL << key;
                for (var store = 0; store < maxStores; store++)
                {
                    var nibble = (int)Math.Min(sums[store], InList);
                    nibbleRow[store >> 1] |= (byte)(nibble << ((store & 1) << 2));
                }

                cells.WriteBytes(nibbleRow);
                Array.Clear(nibbleRow);
                listedFrom = InList;
            }

            var previous = 0;
            for (var store = 0; store < maxStores; store++)
            {
                if (sums[store] >= listedFrom)
                {
                    cells.Write(store + 1 - previous, sums[store]);
                    previous = store + 1;
                }
            }

            Array.Clear(sums);
        }

        itemStarts[keys + 1] = cells.Length;
        return new SealedBlock(cells.ToArray(), itemStarts, nibbles, [.. days.Select(day => day.WithoutItemLists())], maxStores, StoreTotals.Pack(keys, maxStores, days));
    }

    public void WriteHeld(BinaryWriter writer)
    {
        writer.Write(_days.Length);
        foreach (var day in _days)
        {
            day.WriteHeld(writer);
        }

        HeldArrays.Write(writer, _cells);
        HeldArrays.Write(writer, _itemStarts);
        HeldArrays.Write(writer, _nibbles);
        _stores.WriteHeld(writer);
    }

    /// <summary>Checks every offset, as <see cref="SealedDay.ReadHeld"/> does.</summary>
    public static SealedBlock ReadHeld(HeldArrays arrays, int keys, int maxStores)
    {
        var dayCount = arrays.Reader.ReadInt32();
        Require(dayCount is >= 1 and <= MaxDays, "a block's days");
        var days = new SealedDay[dayCount];
        for (var i = 0; i < dayCount; i++)
        {
            days[i] = SealedDay.ReadHeld(arrays, keys, maxStores);
            Require(!days[i].HasItemLists, "a block's day with lists");
        }

        var cells = arrays.Read<byte>();
        var itemStarts = arrays.Read<int>();
        var nibbles = arrays.Read<ulong>();
        Require(itemStarts.Length == keys + 2 && SealedDay.Ascending(itemStarts, cells.Length) && nibbles.Length == (keys >> 6) + 1, "an item's start");
        for (var key = 1; key <= keys; key++)
        {
            Require((nibbles[key >> 6] & (1UL << key)) == 0 || itemStarts[key + 1] - itemStarts[key] >= (maxStores + 1) >> 1, "an item's nibbles");
        }

        return new SealedBlock(cells, itemStarts, nibbles, days, maxStores, StoreTotals.ReadHeld(arrays, keys, maxStores));
    }

    private static void Require(bool holds, string what)
    {
        if (!holds)
        {
            throw new InvalidDataException($"Sales by day cannot be loaded: {what}.");
        }
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

    /// <summary>Over the days of <paramref name="days"/> (bit i: day i): those days, or the totals less the others,
    /// whichever are fewer.</summary>
    public void AddItemTo(int key, uint days, long[] storeSums)
    {
        var all = AllDays;
        days &= all;
        var held = BitOperations.PopCount(days);
        if (held * 2 <= Days && days != all)
        {
            for (var left = days; left != 0; left &= left - 1)
            {
                _days[BitOperations.TrailingZeroCount(left)].AddItemOfEachStoreTo(key, 1, storeSums);
            }

            return;
        }

        AddTotalsTo(key, storeSums);
        for (var left = ~days & all; left != 0; left &= left - 1)
        {
            _days[BitOperations.TrailingZeroCount(left)].AddItemOfEachStoreTo(key, -1, storeSums);
        }
    }

    /// <summary>Over all the block's days.</summary>
    public void AddStoreTo(int storeId, BitSlicedCounts counts) => _stores.AddTo(storeId, counts);

    private void AddTotalsTo(int key, long[] storeSums)
    {
        var (start, end) = (_itemStarts[key], _itemStarts[key + 1]);
        if ((_nibbles[key >> 6] & (1UL << key)) != 0)
        {
            var row = _cells.AsSpan(start, (_maxStores + 1) >> 1);
            for (var store = 0; store < _maxStores; store++)
            {
                var nibble = (row[store >> 1] >> ((store & 1) << 2)) & 0xF;
                storeSums[store] += nibble == InList ? 0 : nibble;
            }

            start += row.Length;
        }

        var reader = new SealedDay.CellReader(_cells, start, end);
        while (reader.Next(out var store, out var units))
        {
            storeSums[store - 1] += units;
        }
    }
    /// <summary>Each store's units of each item over the block, added once instead of each day's: where the store sold
    /// one item in eight, planes up to <see cref="PlanesHold"/> and the units beyond listed; else a list.</summary>
    private sealed class StoreTotals(int[] planesOfStore, ulong[] planes, int[] listStarts, byte[] lists)
    {
        public long Bytes => (4 * 24) + 32 + planes.LongLength * sizeof(ulong) + lists.Length + (((long)planesOfStore.Length + listStarts.Length) * sizeof(int));

        public static StoreTotals Pack(int keys, int maxStores, IReadOnlyList<SealedDay> days)
        {
            var bitmapWords = SealedDay.BitmapWords(keys);
            var planesOfStore = new int[maxStores];
            var planes = new List<ulong[]>();
            var listStarts = new int[maxStores + 1];
            var lists = new SealedDay.CellWriter(1 << 12);
            var totals = new SumUnits { Units = new long[keys + 1] };
            for (var store = 1; store <= maxStores; store++)
            {
                foreach (var day in days)
                {
                    day.ForEachInStore(store, ref totals);
                }

                var sold = 0;
                for (var key = 1; key <= keys; key++)
                {
                    sold += totals.Units[key] > 0 ? 1 : 0;
                }

                var listedBeyond = 0L;
                planesOfStore[store - 1] = NoPlanes;
                if (sold > 0 && (long)sold * 8 >= keys)
                {
                    var storePlanes = new ulong[StorePlanes * bitmapWords];
                    for (var key = 1; key <= keys; key++)
                    {
                        for (var held = Math.Min(totals.Units[key], PlanesHold); held != 0; held &= held - 1)
                        {
                            storePlanes[(System.Numerics.BitOperations.TrailingZeroCount(held) * bitmapWords) + (key >> 6)] |= 1UL << key;
                        }
                    }

                    planesOfStore[store - 1] = planes.Count * StorePlanes * bitmapWords;
                    planes.Add(storePlanes);
                    listedBeyond = PlanesHold;
                }

                var previous = 0;
                for (var key = 1; key <= keys; key++)
                {
                    if (totals.Units[key] > listedBeyond)
                    {
                        lists.Write(key - previous, totals.Units[key] - listedBeyond);
                        previous = key;
                    }
                }

                listStarts[store] = lists.Length;
                Array.Clear(totals.Units);
            }

            return new StoreTotals(planesOfStore, [.. planes.SelectMany(storePlanes => storePlanes)], listStarts, lists.ToArray());
        }

        public void AddTo(int storeId, BitSlicedCounts counts)
        {
            if (planesOfStore[storeId - 1] is var at and not NoPlanes)
            {
                counts.Add(planes, at, StorePlanes);
            }

            var reader = new SealedDay.CellReader(lists, listStarts[storeId - 1], listStarts[storeId]);
            while (reader.Next(out var key, out var units))
            {
                counts.Add(key, units);
            }
        }

        public void WriteHeld(BinaryWriter writer)
        {
            HeldArrays.Write(writer, planesOfStore);
            HeldArrays.Write(writer, planes);
            HeldArrays.Write(writer, listStarts);
            HeldArrays.Write(writer, lists);
        }

        public static StoreTotals ReadHeld(HeldArrays arrays, int keys, int maxStores)
        {
            var (planesOfStore, planes) = (arrays.Read<int>(), arrays.Read<ulong>());
            var (listStarts, lists) = (arrays.Read<int>(), arrays.Read<byte>());
            var bitmapWords = SealedDay.BitmapWords(keys);
            var storeWords = StorePlanes * bitmapWords;
            Require(planesOfStore.Length == maxStores && planes.Length % storeWords == 0 && listStarts.Length == maxStores + 1 && SealedDay.Ascending(listStarts, lists.Length), "a store's totals");
            foreach (var at in planesOfStore)
            {
                Require(at == NoPlanes || (at >= 0 && at % storeWords == 0 && at <= planes.Length - storeWords), "a store's planes");
                for (var plane = 0; at != NoPlanes && plane < StorePlanes; plane++)
                {
                    Require(SealedDay.OnlyKeys(planes.AsSpan(at + (plane * bitmapWords), bitmapWords), keys), "a key out of range");
                }
            }

            return new StoreTotals(planesOfStore, planes, listStarts, lists);
        }

        private struct SumUnits : IItemUnitsVisitor
        {
            public long[] Units;

            public readonly void Visit(int key, long units) => Units[key] += units;
        }
    }
}
