namespace Supermarket.SalesCounting;

/// <summary>One store's units of each item on one day, in open addressing holding only the items that sold. One
/// thread adds; any number read without a lock.</summary>
/// <remarks>A new item's units are written before its key (0: an empty slot, never removed), and a grown table is
/// filled before it is published, so a reader sees every line added before it looked. Units stay 32-bit until one
/// would pass <see cref="int.MaxValue"/>: half the bytes a slot is half the memory of a year kept.</remarks>
internal sealed class StoreDaySales(int keys)
{
    // Linear probing stays short below it.
    private const double MaxLoad = 0.8;

    private const int FirstCapacity = 16;

    private Slots _slots = new(FirstCapacity, wide: false);
    private int _count;

    // Once the store sold one item in SealedDay.BitmapDensity: _sold, the items that sold a unit then those that sold
    // two, and, filled before it is published, the list of those that sold more, so a reader of _sold finds them all.
    private int[] _moreThanTwo = [];
    private int _moreThanTwoCount;
    private ulong[]? _sold;

    public int Count => _count;

    public long Bytes => Volatile.Read(ref _slots).Bytes + ObjectBytes + ((Volatile.Read(ref _sold)?.Length ?? 0) * sizeof(ulong)) + ((long)Volatile.Read(ref _moreThanTwo).Length * sizeof(int));

    // This object and its slots' object, without their arrays.
    private const long ObjectBytes = 48 + 40;

    /// <summary><paramref name="units"/>: positive. Returns by how many bytes the table grew.</summary>
    public long Add(int key, long units, out long total)
    {
        var before = Bytes;
        var slots = _slots;
        var slot = slots.Home(key);
        while (true)
        {
            var found = slots.Keys[slot];
            if (found == key)
            {
                total = slots.UnitsAt(slot) + units;
                if (!slots.Wide && total > int.MaxValue)
                {
                    slots = Publish(slots.Copy(slots.Capacity, wide: true));
                    slot = slots.Find(key);
                }

                slots.SetUnits(slot, total);
                if (_sold is { } soldBefore && total - units < 3)
                {
                    Sold(soldBefore, key, total - units, total);
                }

                return Bytes - before;
            }

            if (found == 0)
            {
                break;
            }

            slot = slot + 1 == slots.Capacity ? 0 : slot + 1;
        }

        if (_count + 1 > slots.Capacity * MaxLoad || (!slots.Wide && units > int.MaxValue))
        {
            slots = Publish(slots.Copy(
                _count + 1 > slots.Capacity * MaxLoad ? slots.Capacity + (slots.Capacity >> 1) : slots.Capacity,
                wide: slots.Wide || units > int.MaxValue));
            slot = slots.Home(key);
            while (slots.Keys[slot] != 0)
            {
                slot = slot + 1 == slots.Capacity ? 0 : slot + 1;
            }
        }

        slots.SetUnits(slot, units);
        Volatile.Write(ref slots.Keys[slot], key);
        _count++;
        total = units;
        if (_sold is { } sold)
        {
            Sold(sold, key, 0, units);
        }
        else if ((long)_count * SealedDay.BitmapDensity >= keys)
        {
            KeepBitmap();
        }

        return Bytes - before;
    }

    public long UnitsOf(int key)
    {
        var slots = Volatile.Read(ref _slots);
        var slot = slots.Find(key);
        return slot < 0 ? 0 : slots.UnitsAt(slot);
    }

    public void AddTo(BitSlicedCounts counts)
    {
        if (Volatile.Read(ref _sold) is not { } sold)
        {
            var slots = Volatile.Read(ref _slots);
            for (var slot = 0; slot < slots.Capacity; slot++)
            {
                if (Volatile.Read(ref slots.Keys[slot]) is var key and not 0)
                {
                    counts.Add(key, slots.UnitsAt(slot));
                }
            }

            return;
        }

        // The list before the bitmaps: counts reads the bitmaps later, by when they hold every item listed.
        var count = Volatile.Read(ref _moreThanTwoCount);
        var moreThanTwo = Volatile.Read(ref _moreThanTwo);
        for (var i = 0; i < count; i++)
        {
            var key = moreThanTwo[i];
            counts.Add(key, UnitsOf(key) - 2);
        }

        counts.Add(sold, 0);
        counts.Add(sold, sold.Length / 2);
    }

    private void KeepBitmap()
    {
        var (slots, sold) = (_slots, new ulong[2 * SealedDay.BitmapWords(keys)]);
        for (var slot = 0; slot < slots.Capacity; slot++)
        {
            if (slots.Keys[slot] is var key and not 0)
            {
                Sold(sold, key, 0, slots.UnitsAt(slot));
            }
        }

        Volatile.Write(ref _sold, sold);
    }

    private void Sold(ulong[] sold, int key, long before, long now)
    {
        var (word, bit) = (key >> 6, 1UL << key);
        if (before < 1)
        {
            Volatile.Write(ref sold[word], sold[word] | bit);
        }

        if (before < 2 && now >= 2)
        {
            word += sold.Length / 2;
            Volatile.Write(ref sold[word], sold[word] | bit);
        }

        if (before < 3 && now >= 3)
        {
            if (_moreThanTwoCount == _moreThanTwo.Length)
            {
                var grown = new int[Math.Max(64, _moreThanTwo.Length * 2)];
                _moreThanTwo.AsSpan().CopyTo(grown);
                Volatile.Write(ref _moreThanTwo, grown);
            }

            _moreThanTwo[_moreThanTwoCount] = key;
            Volatile.Write(ref _moreThanTwoCount, _moreThanTwoCount + 1);
        }
    }

    /// <summary>For a snapshot, from the recording thread.</summary>
    public (int[] Keys, long[] Units) CopyCells()
    {
        var (slots, keys, units, count) = (_slots, new int[_count], new long[_count], 0);
        for (var slot = 0; slot < slots.Capacity; slot++)
        {
            if (slots.Keys[slot] != 0)
            {
                (keys[count], units[count]) = (slots.Keys[slot], slots.UnitsAt(slot));
                count++;
            }
        }

        return (keys, units);
    }

    /// <summary>While nothing records.</summary>
    public void ForEach<TVisitor>(ref TVisitor visit)
        where TVisitor : struct, IItemUnitsVisitor
    {
        var slots = _slots;
        for (var slot = 0; slot < slots.Capacity; slot++)
        {
            if (slots.Keys[slot] != 0)
            {
                visit.Visit(slots.Keys[slot], slots.UnitsAt(slot));
            }
        }
    }

    private Slots Publish(Slots slots)
    {
        Volatile.Write(ref _slots, slots);
        return slots;
    }

    /// <summary>The arrays a reader takes together: keys and 32- or 64-bit units.</summary>
    private sealed class Slots(int capacity, bool wide)
    {
        public readonly int[] Keys = new int[capacity];
        private readonly int[]? _narrow = wide ? null : new int[capacity];
        private readonly long[]? _wide = wide ? new long[capacity] : null;

        public int Capacity => Keys.Length;

        public bool Wide => _wide is not null;

        public long Bytes => (long)Capacity * (sizeof(int) + (Wide ? sizeof(long) : sizeof(int))) + (2 * 24);

        // A multiplicative hash mapped onto any capacity, not only powers of two, so a table grows by half.
        public int Home(int key) => (int)(((ulong)(uint)(key * -1640531535) * (uint)Capacity) >> 32);

        public int Find(int key)
        {
            var slot = Home(key);
            while (true)
            {
                var found = Volatile.Read(ref Keys[slot]);
                if (found == key)
                {
                    return slot;
                }

                if (found == 0)
                {
                    return -1;
                }

                slot = slot + 1 == Capacity ? 0 : slot + 1;
            }
        }

        public long UnitsAt(int slot) => _wide is null ? Volatile.Read(ref _narrow![slot]) : Volatile.Read(ref _wide[slot]);

        public void SetUnits(int slot, long units)
        {
            if (_wide is null)
            {
                Volatile.Write(ref _narrow![slot], (int)units);
            }
            else
            {
                Volatile.Write(ref _wide[slot], units);
            }
        }

        public Slots Copy(int capacity, bool wide)
        {
            var copy = new Slots(capacity, wide);
            for (var slot = 0; slot < Capacity; slot++)
            {
                var key = Keys[slot];
                if (key == 0)
                {
                    continue;
                }

                var to = copy.Home(key);
                while (copy.Keys[to] != 0)
                {
                    to = to + 1 == capacity ? 0 : to + 1;
                }

                copy.SetUnits(to, UnitsAt(slot));
                copy.Keys[to] = key;
            }

            return copy;
        }
    }
}

/// <summary>What <see cref="StoreDaySales.ForEach{TVisitor}"/> calls with each item's key and units.</summary>
internal interface IItemUnitsVisitor
{
    void Visit(int key, long units);
}
