using System.IO.Compression;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Ledger;

namespace Supermarket.SalesCounting;

/// <summary>
/// Units sold per (day, store, item) for the last <see cref="DaysKept"/> days with sales, ranked exactly over any range
/// of them: the purchase's own day (<see cref="SaleLine.Day"/>), of one shard's range of items
/// (<see cref="SalesMatrix"/>'s conventions and tie rules: most units first, ties by the lower id, no units left out).
/// </summary>
/// <remarks>
/// <para>Layout: per day, per store, a table of the items that sold (<see cref="StoreDaySales"/>), so memory follows
/// what sold (a store of the seeds' load sells ~12,600 of 100,000 items a day), not items × stores × days. "Top items at
/// a store" adds the range's tables of that store up (one day is ranked straight from its table); "top stores for an
/// item" looks the item up in each store's table of each day.</para>
/// <para>Days kept are days with sales: a new day beyond <see cref="DaysKept"/> pushes the oldest out if it is later,
/// and is left out if it is older. What is kept depends on the sequence of lines alone, so replicas following the same
/// ledger keep the same days.</para>
/// <para>One thread records; rankings run on any others without a lock. The days are an immutable sorted array
/// replaced on each new day; a ranking takes it once, so it sees every line recorded before it began, and may see some
/// recorded after.</para>
/// </remarks>
public sealed class SalesByDay
{
    private const int FileMagic = 0x31444253; // "SBD1"
    private const int FileVersion = 1;
    private const int NothingDropped = int.MinValue;

    /// <summary>Scratch of a ranking over several days: each item's sum, indexed by key, and which are set. Per thread,
    /// so rankings on several threads need no lock; zeroed again after each use.</summary>
    [ThreadStatic]
    private static long[]? _sums;

    [ThreadStatic]
    private static int[]? _touched;

    private Dictionary<int, DaySales> _dayByNumber = [];
    private DaySales[] _days = [];
    private DaySales? _lastDay;
    private int _lastDropped = NothingDropped;
    private long _bytes;

    /// <summary>Sales of the catalog's <paramref name="items"/> at stores 1 to <paramref name="maxStores"/>, for the
    /// last <paramref name="daysKept"/> days with sales.</summary>
    public SalesByDay(int maxStores, ItemRange items, int daysKept)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxStores, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(items.First, 1, nameof(items));
        ArgumentOutOfRangeException.ThrowIfLessThan(items.Last, items.First, nameof(items));
        ArgumentOutOfRangeException.ThrowIfLessThan(daysKept, 1);
        MaxStores = maxStores;
        Items = items;
        DaysKept = daysKept;
    }

    public int MaxStores { get; }

    /// <summary>The items this one counts and ranks.</summary>
    public ItemRange Items { get; }

    /// <summary>How many days with sales are kept at most.</summary>
    public int DaysKept { get; }

    /// <summary>The oldest day kept; null while no day has sales.</summary>
    public DateOnly? FirstDayKept => Volatile.Read(ref _days) is [var first, ..] ? DateOnly.FromDayNumber(first.Number) : null;

    /// <summary>The latest day kept; null while no day has sales.</summary>
    public DateOnly? LastDayKept => Volatile.Read(ref _days) is [.., var last] ? DateOnly.FromDayNumber(last.Number) : null;

    /// <summary>
    /// The first day a range may start on and be exact: <see cref="DateOnly.MinValue"/> while no sales were dropped,
    /// else the day after the latest day whose sales were dropped (a day that fell out, or a line left out as older
    /// than every day kept). It is never later than <see cref="FirstDayKept"/>: days between it and that had no sales.
    /// </summary>
    /// <remarks>A day falls out after this moves past it, so a caller that checks it after ranking (not before) never
    /// calls a ranking exact that missed a day.</remarks>
    public DateOnly FirstDayAnswerable
    {
        get
        {
            var dropped = Volatile.Read(ref _lastDropped);
            return dropped == NothingDropped ? DateOnly.MinValue : DateOnly.FromDayNumber(dropped + 1);
        }
    }

    /// <summary>The memory held: the tables of every day kept.</summary>
    public long Bytes => Volatile.Read(ref _bytes);

    /// <summary>
    /// Records lines from one thread at a time. Lines of another shard's items are passed over, as
    /// <see cref="SalesMatrix"/> passes them, and so are lines of no units. Lines outside the catalog (a store beyond
    /// <see cref="MaxStores"/>, an item below 1), negative quantities, undated lines (<c>Day == default</c>, from an old
    /// ledger entry), and lines of a day older than every day kept while <see cref="DaysKept"/> days are kept, are
    /// left out. Returns how many were left out.
    /// </summary>
    /// <remarks>This one does not know the catalog's largest item id: an item above this shard's is another shard's
    /// here, and <see cref="SalesMatrix.RecordSales"/> reports it when it is no shard's.</remarks>
    public int RecordSales(ReadOnlySpan<SaleLine> lines)
    {
        var leftOut = 0;
        foreach (var line in lines)
        {
            if ((uint)(line.StoreId - 1) >= (uint)MaxStores || line.ItemId < 1 || line.Quantity < 0)
            {
                leftOut++;
                continue;
            }

            if (!Items.Contains(line.ItemId) || line.Quantity == 0)
            {
                continue;
            }

            if (line.Day == default || DayOf(line.Day.DayNumber) is not { } day)
            {
                leftOut++;
                continue;
            }

            var grown = day.Add(line.StoreId, line.ItemId - Items.First + 1, line.Quantity);
            if (grown != 0)
            {
                Volatile.Write(ref _bytes, _bytes + grown);
            }
        }

        return leftOut;
    }

    /// <summary>Writes the best-selling items at <paramref name="storeId"/> from <paramref name="from"/> to
    /// <paramref name="to"/> (both counted) into <paramref name="best"/>, most units first, ties by the lower item id,
    /// items with no sales left out. Returns how many were written.</summary>
    public int TopItemsAtStore(int storeId, DateOnly from, DateOnly to, Span<RankedSales> best)
    {
        CheckStore(storeId);
        CheckCount(best);
        var (days, first, end) = DaysBetween(from, to);
        var ranking = new RangeRanking(best);
        if (end - first == 1)
        {
            Volatile.Read(ref days[first].Stores[storeId - 1])?.OfferTo(ref ranking, Items.First);
            return ranking.Count;
        }

        var sums = _sums is { } s && s.Length > Items.Count ? s : _sums = new long[Items.Count + 1];
        var touched = _touched is { } t && t.Length > Items.Count ? t : _touched = new int[Items.Count + 1];
        var touchedCount = 0;
        for (var day = first; day < end; day++)
        {
            Volatile.Read(ref days[day].Stores[storeId - 1])?.AddTo(sums, touched, ref touchedCount);
        }

        foreach (var key in touched.AsSpan(0, touchedCount))
        {
            ranking.Offer(key - 1 + Items.First, sums[key]);
            sums[key] = 0;
        }

        return ranking.Count;
    }

    /// <summary>Writes the stores that sold the most of <paramref name="itemId"/> from <paramref name="from"/> to
    /// <paramref name="to"/> (both counted) into <paramref name="best"/>, most units first, ties by the lower store id,
    /// stores with no sales left out. Returns how many were written.</summary>
    public int TopStoresForItem(int itemId, DateOnly from, DateOnly to, Span<RankedSales> best)
    {
        CheckItem(itemId);
        CheckCount(best);
        var (days, first, end) = DaysBetween(from, to);
        var ranking = new RangeRanking(best);
        var key = itemId - Items.First + 1;
        for (var store = 0; store < MaxStores; store++)
        {
            long units = 0;
            for (var day = first; day < end; day++)
            {
                if (Volatile.Read(ref days[day].Stores[store]) is { } sales)
                {
                    units += sales.UnitsOf(key);
                }
            }

            ranking.Offer(store + 1, units);
        }

        return ranking.Count;
    }

    /// <summary>Writes every day kept, compressed; call it while nothing records. <see cref="Load"/> reads it back.</summary>
    public void Save(Stream destination)
    {
        using var compressed = new ZLibStream(destination, CompressionLevel.Fastest, leaveOpen: true);
        using var buffered = new BufferedStream(compressed, 1 << 16);
        using var writer = new BinaryWriter(buffered);
        writer.Write(FileMagic);
        writer.Write(FileVersion);
        writer.Write(Items.First);
        writer.Write(Items.Last);
        writer.Write(MaxStores);
        writer.Write(_lastDropped);
        writer.Write(_days.Length);
        foreach (var day in _days)
        {
            writer.Write(day.Number);
            writer.Write(day.Stores.Count(sales => sales is not null));
            for (var store = 0; store < MaxStores; store++)
            {
                if (day.Stores[store] is not { } sales)
                {
                    continue;
                }

                writer.Write(store + 1);
                writer.Write(sales.Count);
                var write = new WriteItemUnits(writer);
                sales.ForEach(ref write);
            }
        }
    }

    /// <summary>Replaces everything with what <see cref="Save"/> wrote (of the same items and stores); call it while
    /// nothing records. Days beyond <see cref="DaysKept"/> (a file saved with more kept) fall out, oldest first. A file
    /// that cannot be read leaves the content as it was.</summary>
    /// <exception cref="InvalidDataException">The file is not one <see cref="Save"/> wrote for these items and stores.</exception>
    public void Load(Stream source)
    {
        var loaded = new SalesByDay(MaxStores, Items, DaysKept);
        loaded.Read(source);
        _dayByNumber = loaded._dayByNumber;
        _lastDay = null;
        Volatile.Write(ref _lastDropped, loaded._lastDropped);
        Volatile.Write(ref _days, loaded._days);
        Volatile.Write(ref _bytes, loaded._bytes);
    }

    private void Read(Stream source)
    {
        using var compressed = new ZLibStream(source, CompressionMode.Decompress, leaveOpen: true);
        using var buffered = new BufferedStream(compressed, 1 << 16);
        using var reader = new BinaryReader(buffered);
        Require(reader.ReadInt32() == FileMagic && reader.ReadInt32() == FileVersion, "not a file of sales by day");
        Require(reader.ReadInt32() == Items.First && reader.ReadInt32() == Items.Last && reader.ReadInt32() == MaxStores, "saved for other items or stores");
        var lastDropped = reader.ReadInt32();
        var dayCount = reader.ReadInt32();
        Require(dayCount >= 0, "a negative number of days");
        for (var d = 0; d < dayCount; d++)
        {
            var number = reader.ReadInt32();
            Require(number >= DateOnly.MinValue.DayNumber + 1 && number <= DateOnly.MaxValue.DayNumber, "a day out of range");
            Require(!_dayByNumber.ContainsKey(number) && (_days.Length == 0 || number > _days[^1].Number), "days out of order");
            var day = DayOf(number)!;
            var stores = reader.ReadInt32();
            Require(stores >= 0 && stores <= MaxStores, "too many stores");
            for (var s = 0; s < stores; s++)
            {
                var store = reader.ReadInt32();
                var count = reader.ReadInt32();
                Require((uint)(store - 1) < (uint)MaxStores && day.Stores[store - 1] is null && count > 0 && count <= Items.Count, "a store out of range");
                for (var i = 0; i < count; i++)
                {
                    var key = reader.ReadInt32();
                    var units = reader.ReadInt64();
                    Require((uint)(key - 1) < (uint)Items.Count && units > 0 && day.Stores[store - 1]?.UnitsOf(key) is null or 0, "an item out of range");
                    _bytes += day.Add(store, key, units);
                }
            }
        }

        Volatile.Write(ref _lastDropped, Math.Max(_lastDropped, lastDropped));
    }

    /// <summary>Forgets every day; call it while nothing records.</summary>
    public void Clear()
    {
        _dayByNumber = [];
        _lastDay = null;
        Volatile.Write(ref _lastDropped, NothingDropped);
        Volatile.Write(ref _days, []);
        Volatile.Write(ref _bytes, 0);
    }

    /// <summary>A 64-bit hash of the content, independent of the tables' layout (a sum of every (day, store, item,
    /// units)'s hash, with the days dropped): a checkpoint stores it, so a damaged file is told from a whole one.</summary>
    public ulong Checksum()
    {
        var hash = new HashItemUnits { Sum = Mix((ulong)(uint)_lastDropped) };
        foreach (var day in _days)
        {
            for (var store = 0; store < MaxStores; store++)
            {
                if (day.Stores[store] is { } sales)
                {
                    hash.Place = Mix(((ulong)(uint)day.Number << 32) | (uint)(store + 1));
                    sales.ForEach(ref hash);
                }
            }
        }

        return hash.Sum;
    }

    /// <summary>The day kept of <paramref name="number"/>, added if new (pushing the oldest out when
    /// <see cref="DaysKept"/> are kept); null if it is older than every day kept and there is no room.</summary>
    private DaySales? DayOf(int number)
    {
        if (_lastDay?.Number == number)
        {
            return _lastDay;
        }

        if (_dayByNumber.TryGetValue(number, out var day))
        {
            return _lastDay = day;
        }

        var days = _days;
        if (days.Length >= DaysKept)
        {
            var oldest = days[0];
            if (number < oldest.Number)
            {
                Drop(number);
                return null;
            }

            // Dropped before the day leaves the array, so FirstDayAnswerable read after a ranking covers it.
            Drop(oldest.Number);
            _dayByNumber.Remove(oldest.Number);
            _bytes -= oldest.Bytes;
            days = days[1..];
        }

        day = new DaySales(number, MaxStores);
        var at = Array.BinarySearch(days, day, DaySales.ByNumber);
        DaySales[] grown = [.. days.AsSpan(0, ~at), day, .. days.AsSpan(~at)];
        _dayByNumber.Add(number, day);
        Volatile.Write(ref _bytes, _bytes + day.Bytes);
        Volatile.Write(ref _days, grown);
        return _lastDay = day;
    }

    private void Drop(int number) => Volatile.Write(ref _lastDropped, Math.Max(_lastDropped, number));

    /// <summary>The days kept now, and the indexes of the first in the range and of the one after the last.</summary>
    private (DaySales[] Days, int First, int End) DaysBetween(DateOnly from, DateOnly to)
    {
        if (from > to)
        {
            throw new ArgumentOutOfRangeException(nameof(to), to, $"The range ends before it starts ({from:yyyy-MM-dd}).");
        }

        var days = Volatile.Read(ref _days);
        return (days, LowerBound(days, from.DayNumber), LowerBound(days, to.DayNumber + 1));
    }

    /// <summary>The index of the first day numbered <paramref name="number"/> or later.</summary>
    private static int LowerBound(DaySales[] days, int number)
    {
        int low = 0, high = days.Length;
        while (low < high)
        {
            var middle = (low + high) >>> 1;
            if (days[middle].Number < number)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }

        return low;
    }

    private static ulong Mix(ulong value)
    {
        value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9;
        value = (value ^ (value >> 27)) * 0x94D049BB133111EB;
        return value ^ (value >> 31);
    }

    private static void Require(bool holds, string what)
    {
        if (!holds)
        {
            throw new InvalidDataException($"Sales by day cannot be loaded: {what}.");
        }
    }

    private void CheckStore(int storeId)
    {
        if ((uint)(storeId - 1) >= (uint)MaxStores)
        {
            throw new ArgumentOutOfRangeException(nameof(storeId), storeId, $"Store ids run from 1 to {MaxStores}.");
        }
    }

    private void CheckItem(int itemId)
    {
        if (!Items.Contains(itemId))
        {
            throw new ArgumentOutOfRangeException(nameof(itemId), itemId, $"This one counts items {Items}.");
        }
    }

    private static void CheckCount(Span<RankedSales> best)
    {
        if (best.Length is < 1 or > SalesMatrix.MaxRankedCount)
        {
            throw new ArgumentOutOfRangeException(nameof(best), best.Length, $"Between 1 and {SalesMatrix.MaxRankedCount} can be ranked.");
        }
    }

    /// <summary>One day kept: each store's table, created at its first sale and published for readers.</summary>
    private sealed class DaySales(int number, int maxStores)
    {
        public static readonly IComparer<DaySales> ByNumber = Comparer<DaySales>.Create((x, y) => x.Number.CompareTo(y.Number));

        public int Number { get; } = number;

        public StoreDaySales?[] Stores { get; } = new StoreDaySales?[maxStores];

        /// <summary>This day's memory: its array of stores and their tables.</summary>
        public long Bytes { get; private set; } = 32 + 24 + ((long)maxStores * IntPtr.Size);

        public long Add(int storeId, int key, long units)
        {
            long grown = 0;
            if (Stores[storeId - 1] is not { } sales)
            {
                sales = new StoreDaySales();
                grown = sales.Bytes;
                Volatile.Write(ref Stores[storeId - 1], sales);
            }

            grown += sales.Add(key, units);
            Bytes += grown;
            return grown;
        }
    }

    private readonly struct WriteItemUnits(BinaryWriter writer) : IItemUnitsVisitor
    {
        public void Visit(int key, long units)
        {
            writer.Write(key);
            writer.Write(units);
        }
    }

    private struct HashItemUnits : IItemUnitsVisitor
    {
        public ulong Sum;
        public ulong Place;

        public void Visit(int key, long units) => Sum += Mix(Mix(Place ^ (uint)key) ^ (ulong)units);
    }
}
