using System.Buffers.Binary;
using System.IO.Compression;
using System.Runtime.CompilerServices;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;

namespace Supermarket.SalesCounting;

/// <summary>Units sold per (day, store, item) over the last <see cref="DaysKept"/> days with sales, ranked exactly
/// over any range of them with <see cref="SalesMatrix"/>'s tie rules
/// (docs/architecture.md, "Sales over a range of days").</summary>
/// <remarks>One thread records; rankings read without a lock, taking each immutable state once, so a ranking sees
/// every line recorded before it began. The days kept follow from the lines alone, so replicas keep the same.</remarks>
public sealed class SalesByDay
{
    private const int FirstVersionMagic = 0x31444253; // "SBD1": read, no longer written.
    private const int ZLibHeaderFirstByte = 0x78;
    private const int NothingDropped = int.MinValue;

    // Enough days' misses to overlap, few enough that the first day's list is still in the cache when it is read.
    private const int DaysFetchedTogether = 16;

    // The rankings' scratch, per thread so rankings on several threads need no lock; zeroed or let go after each use.
    [ThreadStatic]
    private static BitSlicedCounts? _counts;

    [ThreadStatic]
    private static long[]? _storeSums;

    [ThreadStatic]
    private static DayState[]? _states;

    [ThreadStatic]
    private static DayState[]? _rangeStates;

    [ThreadStatic]
    private static List<(SealedBlock Block, uint Days, bool Added)>? _rangeBlocks;

    private Dictionary<int, DaySales> _dayByNumber = [];
    private DaySales[] _days = [];
    private DaySales? _lastDay;
    private int _lastDropped = NothingDropped;
    private long _bytes;
    private long _unsealedBytes;

    public SalesByDay(int maxStores, ItemRange items, int daysKept, long unsealedBytesLimit = DefaultUnsealedBytesLimit, int daysPerBlock = SealedBlock.MaxDays)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(daysPerBlock, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(daysPerBlock, SealedBlock.MaxDays);
        ArgumentOutOfRangeException.ThrowIfNegative(unsealedBytesLimit);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxStores, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(items.First, 1, nameof(items));
        ArgumentOutOfRangeException.ThrowIfLessThan(items.Last, items.First, nameof(items));
        ArgumentOutOfRangeException.ThrowIfLessThan(daysKept, 1);
        MaxStores = maxStores;
        Items = items;
        DaysKept = daysKept;
        UnsealedBytesLimit = unsealedBytesLimit;
        DaysPerBlock = daysPerBlock;
    }

    /// <summary>Today's sales stay in tables, where a line costs a lookup, not a repacking.</summary>
    public const long DefaultUnsealedBytesLimit = 64L << 20;

    public long UnsealedBytesLimit { get; }

    public int MaxStores { get; }

    public int DaysPerBlock { get; }

    /// <summary>The latest days stay out of blocks: lines still come for them, and short ranges read their lists.</summary>
    private int RecentDaysApart => DaysPerBlock;

    public ItemRange Items { get; }

    public int DaysKept { get; }

    public DateOnly? FirstDayKept => Volatile.Read(ref _days) is [var first, ..] ? DateOnly.FromDayNumber(first.Number) : null;

    public DateOnly? LastDayKept => Volatile.Read(ref _days) is [.., var last] ? DateOnly.FromDayNumber(last.Number) : null;

    /// <summary>The first day a range may start on and be exact: the day after the latest whose sales were dropped.
    /// It moves before a day falls out, so a caller checks it after ranking, not before.</summary>
    public DateOnly FirstDayAnswerable
    {
        get
        {
            var dropped = Volatile.Read(ref _lastDropped);
            return dropped == NothingDropped ? DateOnly.MinValue : DateOnly.FromDayNumber(dropped + 1);
        }
    }

    public long Bytes => Volatile.Read(ref _bytes);

    /// <summary>From one thread at a time. Returns how many lines were left out: outside the catalog, negative,
    /// undated (an old ledger entry) or older than every day kept. Items above this shard's are passed over:
    /// <see cref="SalesMatrix.RecordSales"/> knows the catalog's largest id and reports those no shard's.</summary>
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
                _unsealedBytes += grown;
                Volatile.Write(ref _bytes, _bytes + grown);
            }
        }

        if (_unsealedBytes > UnsealedBytesLimit)
        {
            Seal();
        }

        return leftOut;
    }

    /// <summary>From the recording thread.</summary>
    public void Seal()
    {
        foreach (var day in _days)
        {
            if (day.State.Tables is not null)
            {
                Volatile.Write(ref _bytes, _bytes + day.Seal(Items.Count));
            }
        }

        _unsealedBytes = 0;
        FormBlocks();
    }

    private void FormBlocks()
    {
        var days = _days;
        var joining = new List<DaySales>(DaysPerBlock);
        for (var d = 0; d < days.Length - RecentDaysApart; d++)
        {
            var state = days[d].State;
            if (state.Block is not null || state.Tables is not null || state.Sealed is null)
            {
                continue;
            }

            joining.Add(days[d]);
            if (joining.Count == DaysPerBlock)
            {
                var block = SealedBlock.Pack(Items.Count, MaxStores, [.. joining.Select(day => day.State.Sealed!)]);
                for (var i = 0; i < joining.Count; i++)
                {
                    var share = (block.Bytes / joining.Count) + (i == 0 ? block.Bytes % joining.Count : 0);
                    Volatile.Write(ref _bytes, _bytes + joining[i].JoinBlock(block, i, share));
                }

                joining.Clear();
            }
        }
    }

    /// <summary>From and to both counted. Returns how many were written.</summary>
    public int TopItemsAtStore(int storeId, DateOnly from, DateOnly to, Span<RankedSales> best)
    {
        CheckStore(storeId);
        CheckCount(best);
        var (days, first, end) = DaysBetween(from, to);
        var ranking = new RangeRanking(best);
        var counts = _counts ??= new BitSlicedCounts();
        counts.Start(SealedDay.BitmapWords(Items.Count));

        // Each day's state taken once, so a day leaving its block mid-question is never counted twice; a block whose
        // every day is in the range, still its, is added once from its store's totals.
        var states = _rangeStates is { } held && held.Length >= end - first ? held : _rangeStates = new DayState[Math.Max(end - first, DaysKept)];
        var blocks = _rangeBlocks ??= [];
        // Left as it was by a ranking that failed halfway, if one did.
        blocks.Clear();
        for (var day = first; day < end; day++)
        {
            var state = states[day - first] = days[day].State;
            if (state.Block is { } block)
            {
                var at = IndexOf(blocks, block);
                if (at < 0)
                {
                    blocks.Add((block, 0, Added: false));
                    at = blocks.Count - 1;
                }

                blocks[at] = (block, blocks[at].Days | (1u << state.IndexInBlock), Added: false);
            }
        }

        for (var day = 0; day < end - first; day++)
        {
            var state = states[day];
            states[day] = null!;
            if (state.Block is { } block && IndexOf(blocks, block) is var at && blocks[at].Days == block.AllDays)
            {
                if (blocks[at].Added is false)
                {
                    block.AddStoreTo(storeId, counts);
                    blocks[at] = (block, blocks[at].Days, Added: true);
                }
            }
            else
            {
                state.Sealed?.AddStoreTo(storeId, counts);
            }

            state.TableOf(storeId)?.AddTo(counts);
        }

        blocks.Clear();
        counts.OfferTop(ref ranking, best.Length, Items.First);
        counts.Clear();
        return ranking.Count;

        // A range's days of one block mostly follow each other: the last block seen is the likeliest.
        static int IndexOf(List<(SealedBlock Block, uint Days, bool Added)> blocks, SealedBlock block)
        {
            var at = blocks.Count - 1;
            while (at >= 0 && blocks[at].Block != block)
            {
                at--;
            }

            return at;
        }
    }

    /// <summary>From and to both counted. Returns how many were written.</summary>
    public int TopStoresForItem(int itemId, DateOnly from, DateOnly to, Span<RankedSales> best)
    {
        CheckItem(itemId);
        CheckCount(best);
        var (days, first, end) = DaysBetween(from, to);
        var key = itemId - Items.First + 1;
        var sums = _storeSums is { } s && s.Length >= MaxStores ? s : _storeSums = new long[MaxStores];
        // A few days at a time: their states, then their lists' starts, then their first bytes are fetched before
        // any list is read, so the days' cache misses overlap. A block's days are added in one pass.
        var states = _states ??= new DayState[DaysFetchedTogether];
        SealedBlock? block = null;
        var blockDays = 0u;
        for (var chunk = first; chunk < end; chunk += DaysFetchedTogether)
        {
            var count = Math.Min(DaysFetchedTogether, end - chunk);
            SealedBlock? fetched = null;
            for (var day = 0; day < count; day++)
            {
                var state = states[day] = days[chunk + day].State;
                if (state.Block is { } inBlock)
                {
                    if (inBlock != fetched)
                    {
                        inBlock.PrefetchItemStart(key);
                        fetched = inBlock;
                    }
                }
                else
                {
                    state.Sealed?.PrefetchItemStart(key);
                }
            }

            for (var day = 0; day < count; day++)
            {
                if (states[day].Block is null)
                {
                    states[day].Sealed?.PrefetchItemList(key);
                }
            }

            for (var day = 0; day < count; day++)
            {
                var state = states[day];
                states[day] = null!;
                if (state.Block is { } inBlock)
                {
                    if (inBlock != block)
                    {
                        block?.AddItemTo(key, blockDays, sums);
                        (block, blockDays) = (inBlock, 0u);
                    }

                    blockDays |= 1u << state.IndexInBlock;
                }
                else
                {
                    state.Sealed?.AddItemTo(key, sums);
                }

                if (Volatile.Read(ref state.StoresOfItem) is { } storesOfItem)
                {
                    // A store that sold one unit is a bit; only the tables of the few that sold more are looked up.
                    var storeWords = StoreWords(MaxStores);
                    var words = storesOfItem.AsSpan(key * 2 * storeWords, 2 * storeWords);
                    for (var word = 0; word < storeWords; word++)
                    {
                        var sold = Volatile.Read(ref words[word]);
                        var more = Volatile.Read(ref words[storeWords + word]);
                        for (var bits = sold & ~more; bits != 0; bits &= bits - 1)
                        {
                            sums[(word << 6) + System.Numerics.BitOperations.TrailingZeroCount(bits)]++;
                        }

                        for (var bits = more; bits != 0; bits &= bits - 1)
                        {
                            var store = (word << 6) + System.Numerics.BitOperations.TrailingZeroCount(bits);
                            sums[store] += state.TableOf(store + 1)!.UnitsOf(key);
                        }
                    }
                }
            }
        }

        block?.AddItemTo(key, blockDays, sums);
        var storeSums = sums.AsSpan(0, MaxStores);
        var ranking = new AscendingRanking(best);
        ranking.OfferInOrder(storeSums, firstId: 1);
        storeSums.Clear();
        return ranking.Count;
    }

    /// <summary>From the recording thread. Only tables are copied: packed days never change, so they are shared.</summary>
    public SalesByDaySnapshot TakeSnapshot()
    {
        var days = new SalesByDaySnapshot.Day[_days.Length];
        var tables = new List<(int Store, int[] Keys, long[] Units)>();
        for (var d = 0; d < days.Length; d++)
        {
            var state = _days[d].State;
            tables.Clear();
            for (var store = 1; store <= MaxStores; store++)
            {
                if (state.TableOf(store) is { } sales)
                {
                    var (keys, units) = sales.CopyCells();
                    tables.Add((store, keys, units));
                }
            }

            days[d] = new SalesByDaySnapshot.Day(_days[d].Number, state.Sealed, [.. tables], state.Block, state.IndexInBlock, _days[d].BlockBytes);
        }

        return new SalesByDaySnapshot(Items, MaxStores, _lastDropped, days);
    }

    /// <summary>A snapshot's day packed as <see cref="Seal"/> would pack it.</summary>
    internal static SealedDay PackWith(SealedDay? packed, (int Store, int[] Keys, long[] Units)[] tables, int keys, int maxStores)
    {
        var stores = new (int[] Keys, long[] Units)[maxStores];
        var cells = new SortedCells();
        var table = 0;
        for (var store = 1; store <= maxStores; store++)
        {
            cells.Clear();
            packed?.ForEachInStore(store, ref cells);
            var packedCount = cells.Count;
            if (table < tables.Length && tables[table].Store == store)
            {
                var (_, tableKeys, tableUnits) = tables[table++];
                for (var i = 0; i < tableKeys.Length; i++)
                {
                    cells.Visit(tableKeys[i], tableUnits[i]);
                }
            }

            stores[store - 1] = cells.Sorted(packedCount);
        }

        return SealedDay.Pack(keys, stores);
    }

    /// <summary>Call it while nothing records.</summary>
    public void Save(Stream destination) => TakeSnapshot().WriteTo(destination);

    /// <summary>Call it while nothing records. Days beyond <see cref="DaysKept"/> fall out, oldest first; a file that
    /// cannot be read (<see cref="InvalidDataException"/>) leaves the content as it was.</summary>
    public void Load(Stream source, PackedFiles? files = null)
    {
        var loaded = new SalesByDay(MaxStores, Items, DaysKept, UnsealedBytesLimit, DaysPerBlock);
        loaded.Read(source, files);
        _dayByNumber = loaded._dayByNumber;
        _lastDay = null;
        Volatile.Write(ref _lastDropped, loaded._lastDropped);
        Volatile.Write(ref _days, loaded._days);
        Volatile.Write(ref _bytes, loaded._bytes);
        _unsealedBytes = 0;
    }

    private void Read(Stream source, PackedFiles? files)
    {
        // No array read may pass what the file has left (unbounded on a stream of unknown length).
        var bytesLeft = source.CanSeek ? source.Length - source.Position : source is ChecksummedStream { Remaining: var remaining } ? remaining : long.MaxValue;
        // Not disposed: that would close the caller's stream.
        var buffered = new BufferedStream(source, 1 << 16);
        var first = buffered.ReadByte();
        if (first == ZLibHeaderFirstByte)
        {
            // The first version is zlib: a two-byte header, then deflate. Its checksum is not read: the checkpoint's
            // own covers the file.
            Require(buffered.ReadByte() != -1, "not a file of sales by day");
            using var decompressed = new DeflateStream(buffered, CompressionMode.Decompress, leaveOpen: true);
            ReadFirstVersion(decompressed);
            return;
        }

        Span<byte> number = stackalloc byte[sizeof(ulong)];
        number[0] = (byte)first;
        Require(first != -1 && buffered.Read(number[1..sizeof(int)]) == 3 && BinaryPrimitives.ReadInt32LittleEndian(number) == SalesByDaySnapshot.Magic, "not a file of sales by day");
        var checksummed = ChecksummedStream.Reading(buffered, long.MaxValue);
        var reader = new BinaryReader(checksummed);
        var version = reader.ReadInt32();
        Require(version is SalesByDaySnapshot.ListsOnlyVersion or SalesByDaySnapshot.CellsByStoreVersion or SalesByDaySnapshot.Version, "a version this one does not read");
        var (lastDropped, dayCount) = ReadHeader(reader);
        if (version == SalesByDaySnapshot.Version)
        {
            ReadHeld(new HeldArrays(reader, bytesLeft), dayCount, files);
        }
        else
        {
            ReadRepacking(reader, dayCount, listsOnly: version == SalesByDaySnapshot.ListsOnlyVersion);
        }

        Span<byte> saved = number;
        buffered.ReadExactly(saved);
        Require(BinaryPrimitives.ReadUInt64LittleEndian(saved) == checksummed.Checksum, "the checksum differs: the file was damaged");
        Volatile.Write(ref _lastDropped, Math.Max(_lastDropped, lastDropped));
    }

    private void ReadHeld(HeldArrays arrays, int dayCount, PackedFiles? files)
    {
        var reader = arrays.Reader;
        var blockCount = reader.ReadInt32();
        // A block takes more than four bytes of the file, so a damaged count cannot allocate gigabytes.
        Require(blockCount <= dayCount && arrays.Fits(blockCount, sizeof(int)), "more blocks than days");
        var blocks = new SealedBlock[blockCount];
        for (var b = 0; b < blocks.Length; b++)
        {
            blocks[b] = ReadPacked(held => SealedBlock.ReadHeld(held, Items.Count, MaxStores));
        }

        for (var d = 0; d < dayCount; d++)
        {
            var day = NextDayRead(reader.ReadInt32());
            var blockBytes = reader.ReadInt64();
            Require(blockBytes >= 0, "a day's bytes");
            var state = (SalesByDaySnapshot.DayKind)reader.ReadByte() switch
            {
                SalesByDaySnapshot.DayKind.Empty => new DayState(null, null),
                SalesByDaySnapshot.DayKind.Packed => new DayState(ReadPacked(held => SealedDay.ReadHeld(held, Items.Count, MaxStores)), null),
                SalesByDaySnapshot.DayKind.InBlock => DayOfBlock(reader.ReadInt32(), reader.ReadInt32()),
                _ => throw new InvalidDataException("Sales by day cannot be loaded: a day of no kind."),
            };
            Require(state.Block is not null || state.Sealed is null || state.Sealed.HasItemLists, "a packed day without lists");
            _bytes += day.Restore(state, blockBytes);
        }

        FormBlocks();

        // In this file, or in the one it names.
        T ReadPacked<T>(Func<HeldArrays, T> read)
            where T : class
        {
            if (!reader.ReadBoolean())
            {
                return read(arrays);
            }

            var name = reader.ReadString();
            Require(files is not null, "a packed file named and no folder to read it from");
            return files!.Read(name, read);
        }

        DayState DayOfBlock(int block, int index)
        {
            Require((uint)block < (uint)blocks.Length && (uint)index < (uint)blocks[block].Days, "a day of no block");
            return new DayState(blocks[block].Day(index), null, blocks[block], index);
        }
    }

    /// <summary>Versions 2 and 3 wrote each day's cells by store alone: each day is packed again.</summary>
    private void ReadRepacking(BinaryReader reader, int dayCount, bool listsOnly)
    {
        for (var d = 0; d < dayCount; d++)
        {
            var day = NextDayRead(reader.ReadInt32());
            if (reader.ReadBoolean())
            {
                _bytes += day.Restore(new DayState(SealedDay.Read(reader, Items.Count, MaxStores, listsOnly), null), day.BlockBytes);
            }

            var stores = reader.ReadInt32();
            Require(stores >= 0 && stores <= MaxStores, "too many stores");
            for (var s = 0; s < stores; s++)
            {
                var store = reader.Read7BitEncodedInt();
                var count = reader.Read7BitEncodedInt();
                ReadStoreCells(day, store, count, () => (reader.Read7BitEncodedInt(), reader.Read7BitEncodedInt64()));
            }

            _bytes += day.Seal(Items.Count);
            FormBlocks();
        }
    }

    private void ReadFirstVersion(Stream decompressed)
    {
        using var buffered = new BufferedStream(decompressed, 1 << 16);
        using var reader = new BinaryReader(buffered);
        Require(reader.ReadInt32() == FirstVersionMagic && reader.ReadInt32() == 1, "not a file of sales by day");
        var (lastDropped, dayCount) = ReadHeader(reader);
        for (var d = 0; d < dayCount; d++)
        {
            var day = NextDayRead(reader.ReadInt32());
            var stores = reader.ReadInt32();
            Require(stores >= 0 && stores <= MaxStores, "too many stores");
            for (var s = 0; s < stores; s++)
            {
                var store = reader.ReadInt32();
                var count = reader.ReadInt32();
                ReadStoreCells(day, store, count, () => (reader.ReadInt32(), reader.ReadInt64()));
            }

            // Packed as it is read: a year held in tables would take several times the memory.
            _bytes += day.Seal(Items.Count);
            FormBlocks();
        }

        Volatile.Write(ref _lastDropped, Math.Max(_lastDropped, lastDropped));
    }

    private (int LastDropped, int DayCount) ReadHeader(BinaryReader reader)
    {
        Require(reader.ReadInt32() == Items.First && reader.ReadInt32() == Items.Last && reader.ReadInt32() == MaxStores, "saved for other items or stores");
        var lastDropped = reader.ReadInt32();
        var dayCount = reader.ReadInt32();
        Require(dayCount >= 0, "a negative number of days");
        return (lastDropped, dayCount);
    }

    private DaySales NextDayRead(int number)
    {
        Require(number >= DateOnly.MinValue.DayNumber + 1 && number <= DateOnly.MaxValue.DayNumber, "a day out of range");
        Require(!_dayByNumber.ContainsKey(number) && (_days.Length == 0 || number > _days[^1].Number), "days out of order");
        return DayOf(number)!;
    }

    private void ReadStoreCells(DaySales day, int store, int count, Func<(int Key, long Units)> readCell)
    {
        Require((uint)(store - 1) < (uint)MaxStores && day.State.TableOf(store) is null && count > 0 && count <= Items.Count, "a store out of range");
        for (var i = 0; i < count; i++)
        {
            var (key, units) = readCell();
            Require((uint)(key - 1) < (uint)Items.Count && units > 0 && day.State.TableOf(store)?.UnitsOf(key) is null or 0, "an item out of range");
            _bytes += day.Add(store, key, units);
        }
    }

    /// <summary>Call it while nothing records.</summary>
    public void Clear()
    {
        _dayByNumber = [];
        _lastDay = null;
        Volatile.Write(ref _lastDropped, NothingDropped);
        Volatile.Write(ref _days, []);
        Volatile.Write(ref _bytes, 0);
        _unsealedBytes = 0;
    }

    /// <summary>Independent of how the sales are held: two that hash alike hold the same sales.</summary>
    public ulong Checksum()
    {
        var hash = new HashItemUnits { Sum = Mix((ulong)(uint)_lastDropped) };
        foreach (var day in _days)
        {
            var stores = day.State.CellsOfStores(MaxStores);
            for (var store = 0; store < MaxStores; store++)
            {
                var (keys, units) = stores[store];
                hash.Place = Mix(((ulong)(uint)day.Number << 32) | (uint)(store + 1));
                for (var i = 0; i < keys.Length; i++)
                {
                    hash.Visit(keys[i], units[i]);
                }
            }
        }

        return hash.Sum;
    }

    /// <summary>Added if new, pushing the oldest out; null if older than every day kept and there is no room.</summary>
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
            if (oldest.State.Block is { } block && Array.Find(days, day => day != oldest && day.State.Block == block) is { } blockDay)
            {
                // Its block keeps its cells by store while another of its days is kept: that day counts them.
                blockDay.Keep(oldest.Bytes);
            }
            else
            {
                _bytes -= oldest.Bytes;
            }

            _unsealedBytes -= oldest.UnsealedBytes;
            days = days[1..];
        }

        day = new DaySales(number, MaxStores, Items.Count);
        var at = Array.BinarySearch(days, day, DaySales.ByNumber);
        DaySales[] grown = [.. days.AsSpan(0, ~at), day, .. days.AsSpan(~at)];
        _dayByNumber.Add(number, day);
        Volatile.Write(ref _bytes, _bytes + day.Bytes);
        _unsealedBytes += day.UnsealedBytes;
        Volatile.Write(ref _days, grown);
        return _lastDay = day;
    }

    private void Drop(int number) => Volatile.Write(ref _lastDropped, Math.Max(_lastDropped, number));

    private (DaySales[] Days, int First, int End) DaysBetween(DateOnly from, DateOnly to)
    {
        if (from > to)
        {
            throw new ArgumentOutOfRangeException(nameof(to), to, $"The range ends before it starts ({from:yyyy-MM-dd}).");
        }

        var days = Volatile.Read(ref _days);
        return (days, LowerBound(days, from.DayNumber), LowerBound(days, to.DayNumber + 1));
    }

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

    private static int StoreWords(int maxStores) => (maxStores + 63) >> 6;

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

    private sealed class DaySales(int number, int maxStores, int keys)
    {
        public static readonly IComparer<DaySales> ByNumber = Comparer<DaySales>.Create((x, y) => x.Number.CompareTo(y.Number));

        private static readonly long TablesArrayBytes = 24;

        private DayState _state = new(null, null);

        public int Number { get; } = number;

        /// <summary>What a reader takes once: the packed cells, the tables beside them and their block.</summary>
        public DayState State => Volatile.Read(ref _state);

        public long Bytes { get; private set; } = 32 + 24;

        public long UnsealedBytes { get; private set; }

        // Its shares of the blocks it joined: a block's memory is counted by its days, and kept while any of them is.
        private long _blockBytes;

        public long BlockBytes => _blockBytes;

        public long JoinBlock(SealedBlock block, int index, long share)
        {
            var before = Bytes;
            var withoutLists = block.Day(index);
            // One new state: a reader takes the cells without lists with the block that holds them, or neither.
            Volatile.Write(ref _state, new DayState(withoutLists, null, block, index));
            _blockBytes += share;
            Bytes = 32 + 24 + withoutLists.Bytes + _blockBytes;
            return Bytes - before;
        }

        public void Keep(long bytes)
        {
            _blockBytes += bytes;
            Bytes += bytes;
        }

        public long Add(int storeId, int key, long units)
        {
            var state = _state;
            long grown = 0;
            if (state.Tables is not { } tables)
            {
                tables = new StoreDaySales?[maxStores];
                var storesOfItem = new ulong[(keys + 1) * 2 * StoreWords(maxStores)];
                grown = (2 * TablesArrayBytes) + ((long)maxStores * IntPtr.Size) + ((long)storesOfItem.Length * sizeof(ulong));
                Volatile.Write(ref state.Tables, tables);
                Volatile.Write(ref state.StoresOfItem, storesOfItem);
            }

            if (tables[storeId - 1] is not { } sales)
            {
                sales = new StoreDaySales(keys);
                grown += sales.Bytes;
                Volatile.Write(ref tables[storeId - 1], sales);
            }

            grown += sales.Add(key, units, out var total);
            if (total - units < 2)
            {
                // After the table holds the units: a reader that sees a bit finds them.
                var storeWords = StoreWords(maxStores);
                ref var word = ref state.StoresOfItem![(key * 2 * storeWords) + (total - units == 0 ? 0 : storeWords) + ((storeId - 1) >> 6)];
                Volatile.Write(ref word, word | (1UL << (storeId - 1)));
                if (total - units == 0 && total >= 2)
                {
                    ref var more = ref Unsafe.Add(ref word, storeWords);
                    Volatile.Write(ref more, more | (1UL << (storeId - 1)));
                }
            }

            Bytes += grown;
            UnsealedBytes += grown;
            return grown;
        }

        /// <summary>On a day read from a file, before any line.</summary>
        public long Restore(DayState state, long blockBytes)
        {
            var before = Bytes;
            Volatile.Write(ref _state, state);
            _blockBytes = blockBytes;
            Bytes = 32 + 24 + (state.Sealed?.Bytes ?? 0) + _blockBytes;
            return Bytes - before;
        }

        public long Seal(int keys)
        {
            var state = _state;
            if (state.Tables is null)
            {
                return 0;
            }

            var before = Bytes;
            var packed = SealedDay.Pack(keys, state.CellsOfStores(maxStores));
            if (state.Block is not null)
            {
                // The block keeps the cells it was packed with, to take them off its totals.
                _blockBytes += state.Sealed!.Bytes;
            }

            Volatile.Write(ref _state, new DayState(packed, null));
            Bytes = 32 + 24 + packed.Bytes + _blockBytes;
            UnsealedBytes = 0;
            return Bytes - before;
        }
    }

    /// <summary>A day as readers see it, replaced whole when packed or put in a block; only its tables fill in.</summary>
    private sealed class DayState(SealedDay? sealedCells, StoreDaySales?[]? tables, SealedBlock? block = null, int indexInBlock = 0)
    {
        public SealedDay? Sealed { get; } = sealedCells;

        public SealedBlock? Block { get; } = block;

        public int IndexInBlock { get; } = indexInBlock;

        /// <summary>Written by the recording thread only, before the first table in it is.</summary>
        public StoreDaySales?[]? Tables = tables;

        /// <summary>Per item, a bit for each store that sold it, then StoreWords words of those that sold two or
        /// more; set once the table holds the units. Written by the recording thread only, after <see cref="Tables"/>.</summary>
        public ulong[]? StoresOfItem;

        public StoreDaySales? TableOf(int storeId) => Volatile.Read(ref Tables) is { } tables ? Volatile.Read(ref tables[storeId - 1]) : null;

        /// <summary>Keys ascending, packed and table units added up; while nothing records.</summary>
        public (int[] Keys, long[] Units)[] CellsOfStores(int maxStores)
        {
            var stores = new (int[] Keys, long[] Units)[maxStores];
            var cells = new SortedCells();
            for (var store = 1; store <= maxStores; store++)
            {
                cells.Clear();
                Sealed?.ForEachInStore(store, ref cells);
                var packedCount = cells.Count;
                TableOf(store)?.ForEach(ref cells);
                stores[store - 1] = cells.Sorted(packedCount);
            }

            return stores;
        }
    }

    private struct SortedCells() : IItemUnitsVisitor
    {
        private readonly List<int> _keys = [];
        private readonly List<long> _units = [];

        public readonly int Count => _keys.Count;

        public readonly void Visit(int key, long units)
        {
            _keys.Add(key);
            _units.Add(units);
        }

        public readonly void Clear()
        {
            _keys.Clear();
            _units.Clear();
        }

        /// <summary>A key given twice (packed and in a table) is added up; the first <paramref name="inOrder"/> are
        /// in order already.</summary>
        public readonly (int[] Keys, long[] Units) Sorted(int inOrder)
        {
            if (Count == 0)
            {
                return ([], []);
            }

            var keys = _keys.ToArray();
            var units = _units.ToArray();
            if (inOrder < keys.Length)
            {
                Array.Sort(keys, units);
            }

            var kept = 0;
            for (var i = 0; i < keys.Length; i++)
            {
                if (kept > 0 && keys[kept - 1] == keys[i])
                {
                    units[kept - 1] += units[i];
                }
                else
                {
                    (keys[kept], units[kept]) = (keys[i], units[i]);
                    kept++;
                }
            }

            return kept == keys.Length ? (keys, units) : (keys[..kept], units[..kept]);
        }
    }

    private struct HashItemUnits : IItemUnitsVisitor
    {
        public ulong Sum;
        public ulong Place;

        public void Visit(int key, long units) => Sum += Mix(Mix(Place ^ (uint)key) ^ (ulong)units);
    }
}
