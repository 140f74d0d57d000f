using System.Numerics;
using System.Runtime.Intrinsics.X86;

namespace Supermarket.SalesCounting;

/// <summary>
/// Several packed days' sales totalled, for <see cref="SalesByDay"/>: each item's units at each store over all the
/// block's days, in place of every day's list, so the days keep only their cells by store, and each store's units of
/// each item. A range holding every day of the block reads an item's or a store's totals; for an item, one holding part
/// of it reads the days it holds from their cells by store, or the totals less the days it leaves out, whichever are
/// fewer; for a store, the days it holds.
/// </summary>
/// <remarks>
/// <para>An item's totals are a nibble a store (0 to 14; 15: see the list after them) when it sold at least at one store
/// in four, else a list of its stores in <see cref="SealedDay"/>'s cell code. The seeds' load sells an item at 98 % of
/// 256 stores over 32 days, about 4 units each: 128 bytes an item, against about 1,000 for the 32 days' lists.</para>
/// <para>A store's totals take four bit-sliced planes (0 to 15, the units beyond listed) where it sold at least one item
/// in eight over the block: 50 KB a store of 100,000 items, 0.4 MB a day of the seeds' 256 stores.</para>
/// <para>The block keeps the cells by store of the days as they were packed (<see cref="Day"/>): a day packed again
/// (lines came for it later) or fallen out is left out of an item's range by taking it off the totals, and makes a
/// store's range read the block's days it holds one by one.</para>
/// </remarks>
internal sealed class SealedBlock
{
    /// <summary>How many days a block holds at most: a day is a bit of a ranking's mask.</summary>
    public const int MaxDays = 32;

    /// <summary>A store's nibble that says its units are in the list after the nibbles.</summary>
    private const int InList = 15;

    /// <summary>A store's totals held as planes count up to this, the units beyond it in the store's list.</summary>
    private const int PlanesHold = (1 << StorePlanes) - 1;

    /// <summary>The bits of a store's totals held bit-sliced (<see cref="BitSlicedCounts"/>'s planes).</summary>
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

    /// <summary>How many days it holds.</summary>
    public int Days => _days.Length;

    /// <summary>The memory this one holds, but for its days' cells by store (the days count those).</summary>
    public long Bytes => (4 * 24) + 56 + _cells.Length + ((long)_itemStarts.Length * sizeof(int)) + ((long)_nibbles.Length * sizeof(ulong)) + _stores.Bytes;

    /// <summary>Every day of the block, as a mask of their indexes.</summary>
    public uint AllDays => Days == MaxDays ? uint.MaxValue : (1u << Days) - 1;

    /// <summary>Day <paramref name="index"/>'s cells by store, as packed (no lists by item).</summary>
    public SealedDay Day(int index) => _days[index];

    /// <summary>The totals of keys 1 to <paramref name="keys"/> at stores 1 to <paramref name="maxStores"/> over
    /// <paramref name="days"/> (each holding its lists by item), day <c>i</c> of the block being
    /// <paramref name="days"/>[i].</summary>
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

            // Dense: nibbles, and the stores past what a nibble holds listed after them; else every store listed.
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

    /// <summary>Writes the block as it is held, its days' cells by store with it, for <see cref="ReadHeld"/>.</summary>
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

    /// <summary>Reads what <see cref="WriteHeld"/> wrote for keys 1 to <paramref name="keys"/> at stores 1 to
    /// <paramref name="maxStores"/>, checking every offset (<see cref="SealedDay.ReadHeld"/>).</summary>
    /// <exception cref="InvalidDataException">A length or an offset is out of range.</exception>
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

    /// <summary>Asks the CPU to bring in where the item's totals start (a hint: it changes nothing).</summary>
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

    /// <summary>Adds each store's units of the item whose key is <paramref name="key"/> on the block's days in
    /// <paramref name="days"/> (bit i: day i) to <paramref name="storeSums"/> (indexed by store id less one).</summary>
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

    /// <summary>Adds the units of each item at <paramref name="storeId"/> over all the block's days to
    /// <paramref name="counts"/>: the planes of its totals at once, then the units listed.</summary>
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
    /// <summary>
    /// Each store's units of each item over the block's days, so a range holding every day of the block adds a store's
    /// totals once instead of each day's bitmap and units beyond the first: for a store that sold at least one item in
    /// eight over the block, <see cref="StorePlanes"/> bit-sliced planes counting up to <see cref="PlanesHold"/> and a
    /// list of the units beyond; for another, a list of every item it sold (<see cref="SealedDay"/>'s cell code).
    /// </summary>
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

                // Dense: planes up to what they hold, the units beyond listed; else every item listed.
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

        /// <summary>Adds up each key's units.</summary>
        private struct SumUnits : IItemUnitsVisitor
        {
            public long[] Units;

            public readonly void Visit(int key, long units) => Units[key] += units;
        }
    }
}
