using System.Runtime.Intrinsics.X86;

namespace Supermarket.SalesCounting;

/// <summary>
/// The lists by item of several packed days, for <see cref="SalesByDay"/>: each item's lists of the block's days back
/// to back (a <see cref="SealedDay.DayEnd"/> between two days), so a range's question about an item reads one start
/// and a stretch of bytes a block, where each day would cost a miss on its start and one on its list.
/// </summary>
/// <remarks>The days keep their lists by store (<see cref="SealedDay.WithoutItemLists"/>). A day of the block packed
/// again (lines came for it later) takes its own lists again; its part here is no longer read.</remarks>
internal sealed class SealedBlock
{
    /// <summary>How many days a block holds at most: a day is a bit of a ranking's mask.</summary>
    public const int MaxDays = 32;

    private readonly byte[] _cells;
    private readonly int[] _itemStarts;

    private SealedBlock(byte[] cells, int[] itemStarts, int days) => (_cells, _itemStarts, Days) = (cells, itemStarts, days);

    /// <summary>How many days' lists it holds.</summary>
    public int Days { get; }

    /// <summary>The memory this one holds.</summary>
    public long Bytes => (2 * 24) + 32 + _cells.Length + ((long)_itemStarts.Length * sizeof(int));

    /// <summary>The lists of keys 1 to <paramref name="keys"/> of <paramref name="days"/> (each holding its lists),
    /// day <c>i</c> of the block being <paramref name="days"/>[i].</summary>
    public static SealedBlock Pack(int keys, IReadOnlyList<SealedDay> days)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThan(days.Count, MaxDays, nameof(days));
        var length = days.Sum(day => (long)day.ItemListBytes) + ((long)keys * (days.Count - 1));
        var cells = new byte[checked((int)length)];
        var itemStarts = new int[keys + 2];
        var at = 0;
        for (var key = 1; key <= keys; key++)
        {
            itemStarts[key] = at;
            for (var day = 0; day < days.Count; day++)
            {
                if (day > 0)
                {
                    cells[at++] = SealedDay.DayEnd;
                }

                var list = days[day].ItemList(key);
                list.CopyTo(cells.AsSpan(at));
                at += list.Length;
            }
        }

        itemStarts[keys + 1] = at;
        return new SealedBlock(cells, itemStarts, days.Count);
    }

    /// <summary>Asks the CPU to bring in where the item's lists start (a hint: it changes nothing).</summary>
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
    /// <remarks>The cells are read here, not through SealedDay's reader: a year's question reads about
    /// 12,000 of them, and this loop keeps its position, store and day in registers.</remarks>
    public void AddItemTo(int key, uint days, long[] storeSums)
    {
        ReadOnlySpan<byte> cells = _cells.AsSpan(_itemStarts[key], _itemStarts[key + 1] - _itemStarts[key]);
        var (at, day, store) = (0, 0, 0);
        var counted = (days & 1) != 0;
        while (at < cells.Length)
        {
            int cell = cells[at++];
            long units;
            if ((cell & SealedDay.DistanceMask) != 0)
            {
                if (cell == SealedDay.DayEnd)
                {
                    day++;
                    store = 0;
                    if ((days >> day) == 0)
                    {
                        return;
                    }

                    counted = ((days >> day) & 1) != 0;
                    continue;
                }

                store += cell & SealedDay.DistanceMask;
                units = cell >> SealedDay.DistanceBits;
            }
            else
            {
                store += (int)ReadVarint(cells, ref at);
                units = (long)ReadVarint(cells, ref at);
            }

            if (counted)
            {
                storeSums[store - 1] += units;
            }
        }
    }

    private static ulong ReadVarint(ReadOnlySpan<byte> cells, ref int at)
    {
        ulong value = 0;
        for (var shift = 0; ; shift += 7)
        {
            var part = cells[at++];
            value |= (ulong)(part & 0x7F) << shift;
            if (part < 0x80)
            {
                return value;
            }
        }
    }
}
