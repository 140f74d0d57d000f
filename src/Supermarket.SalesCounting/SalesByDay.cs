using System.Buffers.Binary;
using System.IO.Compression;
using System.Runtime.CompilerServices;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;

namespace Supermarket.SalesCounting;

/// <summary>
/// Units sold per (day, store, item) for the last <see cref="DaysKept"/> days with sales, ranked exactly over any range
/// of them: the purchase's own day (<see cref="SaleLine.Day"/>), of one shard's range of items
/// (<see cref="SalesMatrix"/>'s conventions and tie rules: most units first, ties by the lower id, no units left out).
/// </summary>
/// <remarks>
/// <para>Layout: per day, the cells that sold, so memory follows what sold (a store of the seeds' load sells ~12,600 of
/// 100,000 items a day), not items × stores × days. Lines are recorded into a table per store and day
/// (<see cref="StoreDaySales"/>); once the tables hold more than <see cref="UnsealedBytesLimit"/>, the days are packed
/// (<see cref="SealedDay"/>: about two bytes a cell, by store and by item) and later lines of a packed day go to new
/// tables beside it. Packed days older than a block's worth give their lists up to blocks of <see cref="DaysPerBlock"/>
/// days (<see cref="SealedBlock"/>) holding each item's and each store's totals over the block, so a year's question
/// reads a dozen totals, not 365 days, and an old day keeps little more than its cells by store. "Top items at a store"
/// adds the store's totals of each block the range holds whole and the bitmaps of its other days up a vector of items
/// at a time (<see cref="BitSlicedCounts"/>), their other units one by one; "top stores for an item" adds the item's
/// list of each of the latest days, each whole block's totals, and a block's days at the range's edge.</para>
/// <para>Days kept are days with sales: a new day beyond <see cref="DaysKept"/> pushes the oldest out if it is later,
/// and is left out if it is older. What is kept depends on the sequence of lines alone, so replicas following the same
/// ledger keep the same days.</para>
/// <para>One thread records; rankings run on any others without a lock. The days are an immutable sorted array
/// replaced on each new day, and a day's packed cells, tables and block are one immutable state replaced when it is
/// packed or joins a block; a ranking takes each once, so it sees every line recorded before it began, and may see
/// some recorded after.</para>
/// </remarks>
public sealed class SalesByDay
{
    /// <summary>The first version's file (each cell as 32- and 64-bit numbers, compressed) is read, no longer written.</summary>
    private const int FirstVersionMagic = 0x31444253; // "SBD1"
    private const int ZLibHeaderFirstByte = 0x78;
    private const int NothingDropped = int.MinValue;

    /// <summary>How many days' lists of an item are fetched before they are read: enough misses to overlap, few enough
    /// that the first is still in the cache when it is read.</summary>
    private const int DaysFetchedTogether = 16;

    /// <summary>Scratch of a ranking of a store's items: each item's units over the range. Per thread, so rankings on
    /// several threads need no lock; zeroed again after each use.</summary>
    [ThreadStatic]
    private static BitSlicedCounts? _counts;

    /// <summary>Scratch of a ranking of stores: each store's sum, zeroed again after each use.</summary>
    [ThreadStatic]
    private static long[]? _storeSums;

    /// <summary>Scratch of a ranking of stores: the states of the days fetched together, let go after each use.</summary>
    [ThreadStatic]
    private static DayState[]? _states;

    /// <summary>Scratch of a ranking of a store's items: the states of the range's days, let go after each use.</summary>
    [ThreadStatic]
    private static DayState[]? _rangeStates;

    /// <summary>Scratch of a ranking of a store's items: the blocks of the range's days, which of their days it holds,
    /// and whether their totals were added.</summary>
    [ThreadStatic]
    private static List<(SealedBlock Block, uint Days, bool Added)>? _rangeBlocks;

    private Dictionary<int, DaySales> _dayByNumber = [];
    private DaySales[] _days = [];
    private DaySales? _lastDay;
    private int _lastDropped = NothingDropped;
    private long _bytes;
    private long _unsealedBytes;

    /// <summary>Sales of the catalog's <paramref name="items"/> at stores 1 to <paramref name="maxStores"/>, for the
    /// last <paramref name="daysKept"/> days with sales; the days are packed once their tables hold more than
    /// <paramref name="unsealedBytesLimit"/> bytes, and the lists by item of <paramref name="daysPerBlock"/> packed
    /// days at a time are held together.</summary>
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

    /// <summary>About a day and a half of the seeds' 256 stores in tables: today's sales stay in tables, where a line
    /// costs a lookup, not a repacking.</summary>
    public const long DefaultUnsealedBytesLimit = 64L << 20;

    /// <summary>How many bytes of tables are kept before every day is packed.</summary>
    public long UnsealedBytesLimit { get; }

    public int MaxStores { get; }

    /// <summary>How many packed days' sales by item a block holds (all but the latest days are in blocks).</summary>
    public int DaysPerBlock { get; }

    /// <summary>The latest days kept stay out of blocks (<see cref="SealedBlock"/>), a block's worth: lines still come
    /// for them, and a range of the last weeks reads their lists instead of a block's days by store.</summary>
    private int RecentDaysApart => DaysPerBlock;

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

    /// <summary>The memory held: every day kept, packed or in tables, and their blocks.</summary>
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

    /// <summary>Packs every day's tables into its sealed cells; from the recording thread.</summary>
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

    /// <summary>Puts the lists by item of packed days with no tables beside them, <see cref="DaysPerBlock"/> at a time,
    /// into blocks, oldest first, but for the latest <see cref="RecentDaysApart"/> days; from the recording thread.</summary>
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
                    // A day's share of the block, the first taking what the division leaves.
                    var share = (block.Bytes / joining.Count) + (i == 0 ? block.Bytes % joining.Count : 0);
                    Volatile.Write(ref _bytes, _bytes + joining[i].JoinBlock(block, i, share));
                }

                joining.Clear();
            }
        }
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
        var counts = _counts ??= new BitSlicedCounts();
        counts.Start(SealedDay.BitmapWords(Items.Count));

        // Each day's state taken once; a block all of whose days are in the range, still its, is added from its
        // store's totals, once, in place of those days' cells.
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

    /// <summary>Writes the stores that sold the most of <paramref name="itemId"/> from <paramref name="from"/> to
    /// <paramref name="to"/> (both counted) into <paramref name="best"/>, most units first, ties by the lower store id,
    /// stores with no sales left out. Returns how many were written.</summary>
    public int TopStoresForItem(int itemId, DateOnly from, DateOnly to, Span<RankedSales> best)
    {
        CheckItem(itemId);
        CheckCount(best);
        var (days, first, end) = DaysBetween(from, to);
        var key = itemId - Items.First + 1;
        var sums = _storeSums is { } s && s.Length >= MaxStores ? s : _storeSums = new long[MaxStores];
        // A few days at a time: each day's state is taken once, then where each packed day's (or block's) list of
        // the item starts is fetched, then its first bytes, then the lists are read. Each step's loads are independent
        // of the other days', so their cache misses overlap instead of coming one day after another. A block's days
        // in the range are read in one pass, when the next day is another block's or none's.
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

    /// <summary>Every day kept as of now, to be written later on any thread; from the recording thread. It copies only
    /// the lines not yet packed: packed days never change, and the snapshot shares them.</summary>
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

    /// <summary>A day's <paramref name="packed"/> cells and the lines in <paramref name="tables"/> (as
    /// <see cref="TakeSnapshot"/> copies them) packed together, as <see cref="Seal"/> would pack that day.</summary>
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

    /// <summary>Writes every day kept; call it while nothing records. <see cref="Load"/> reads it back.</summary>
    public void Save(Stream destination) => TakeSnapshot().WriteTo(destination);

    /// <summary>Replaces everything with what <see cref="Save"/> (or a <see cref="SalesByDaySnapshot"/>) wrote, of
    /// the same items and stores, its packed days and blocks read from <paramref name="files"/> where it names them, or a
    /// file of an earlier version; call it while nothing records.
    /// Days beyond <see cref="DaysKept"/> (a file saved with more kept) fall out, oldest first. A file that cannot be
    /// read leaves the content as it was.</summary>
    /// <exception cref="InvalidDataException">The file is not one <see cref="Save"/> wrote for these items and stores,
    /// or it was damaged.</exception>
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
        // What the file has left, which no array read from it may pass (unbounded on a stream of unknown length).
        var bytesLeft = source.CanSeek ? source.Length - source.Position : source is ChecksummedStream { Remaining: var remaining } ? remaining : long.MaxValue;
        // Not disposed: that would close the caller's stream.
        var buffered = new BufferedStream(source, 1 << 16);
        var first = buffered.ReadByte();
        if (first == ZLibHeaderFirstByte)
        {
            // The first version is a zlib stream: its two-byte header, then deflate. Its checksum at the end is not
            // read; a checkpoint's own covers the file.
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

    /// <summary>Reads the blocks and the days as they were held (<see cref="SalesByDaySnapshot.Version"/>).</summary>
    private void ReadHeld(HeldArrays arrays, int dayCount, PackedFiles? files)
    {
        var reader = arrays.Reader;
        var blockCount = reader.ReadInt32();
        // A block takes more than four bytes of the file: no count a damaged file holds allocates gigabytes.
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

    /// <summary>Reads the days of the versions that wrote each day's cells by store alone, packing each again.</summary>
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

            // Packed as it is read: a year in tables would hold seven times the memory.
            _bytes += day.Seal(Items.Count);
            FormBlocks();
        }

        Volatile.Write(ref _lastDropped, Math.Max(_lastDropped, lastDropped));
    }

    /// <summary>The part after the version both versions share: the items and stores it was saved for (checked), the
    /// last day dropped and how many days follow.</summary>
    private (int LastDropped, int DayCount) ReadHeader(BinaryReader reader)
    {
        Require(reader.ReadInt32() == Items.First && reader.ReadInt32() == Items.Last && reader.ReadInt32() == MaxStores, "saved for other items or stores");
        var lastDropped = reader.ReadInt32();
        var dayCount = reader.ReadInt32();
        Require(dayCount >= 0, "a negative number of days");
        return (lastDropped, dayCount);
    }

    /// <summary>The day of <paramref name="number"/>, read after every day before it.</summary>
    private DaySales NextDayRead(int number)
    {
        Require(number >= DateOnly.MinValue.DayNumber + 1 && number <= DateOnly.MaxValue.DayNumber, "a day out of range");
        Require(!_dayByNumber.ContainsKey(number) && (_days.Length == 0 || number > _days[^1].Number), "days out of order");
        return DayOf(number)!;
    }

    /// <summary>Records a store's cells as read (each item once, positive units) into the tables of
    /// <paramref name="day"/>.</summary>
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

    /// <summary>Forgets every day; call it while nothing records.</summary>
    public void Clear()
    {
        _dayByNumber = [];
        _lastDay = null;
        Volatile.Write(ref _lastDropped, NothingDropped);
        Volatile.Write(ref _days, []);
        Volatile.Write(ref _bytes, 0);
        _unsealedBytes = 0;
    }

    /// <summary>A 64-bit hash of the content, independent of how it is held (a sum of every (day, store, item,
    /// units)'s hash, with the days dropped): two that hash alike hold the same sales, packed or not.</summary>
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

    /// <summary>How many 64-bit words an item's stores take in a day's <c>StoresOfItem</c>.</summary>
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

    /// <summary>One day kept: its packed cells and the tables of the lines recorded since it was packed.</summary>
    private sealed class DaySales(int number, int maxStores, int keys)
    {
        public static readonly IComparer<DaySales> ByNumber = Comparer<DaySales>.Create((x, y) => x.Number.CompareTo(y.Number));

        private static readonly long TablesArrayBytes = 24;

        private DayState _state = new(null, null);

        public int Number { get; } = number;

        /// <summary>What a reader takes once: the packed cells and the tables beside them.</summary>
        public DayState State => Volatile.Read(ref _state);

        /// <summary>This day's memory: packed cells, tables and their array of stores.</summary>
        public long Bytes { get; private set; } = 32 + 24;

        /// <summary>The part of <see cref="Bytes"/> in tables.</summary>
        public long UnsealedBytes { get; private set; }

        /// <summary>This day's shares of the blocks it joined: kept while it is, as its blocks' other days keep them.</summary>
        private long _blockBytes;

        /// <summary>The bytes of blocks this day counts as its own (<see cref="JoinBlock"/>, <see cref="Keep"/>).</summary>
        public long BlockBytes => _blockBytes;

        /// <summary>Hands this day's lists by item (packed, no tables beside them) to <paramref name="block"/>, where it
        /// is day <paramref name="index"/>, and counts <paramref name="share"/> of the block's bytes as its own. Returns
        /// by how many bytes this day grew (less than zero: it shrank).</summary>
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

        /// <summary>Counts <paramref name="bytes"/> that a block of this day's keeps for another day as this day's.</summary>
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

        /// <summary>Makes <paramref name="state"/> this day's, counting <paramref name="blockBytes"/> of blocks as its
        /// own, on a day read from a file before any line. Returns by how many bytes this day grew.</summary>
        public long Restore(DayState state, long blockBytes)
        {
            var before = Bytes;
            Volatile.Write(ref _state, state);
            _blockBytes = blockBytes;
            Bytes = 32 + 24 + (state.Sealed?.Bytes ?? 0) + _blockBytes;
            return Bytes - before;
        }

        /// <summary>Packs the tables with the cells packed before into new cells, and publishes them with no tables.
        /// Returns by how many bytes this day grew (less than zero: it shrank).</summary>
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

    /// <summary>A day as readers see it: packed cells (null until first packed) and tables of the lines recorded since
    /// (null until a line comes; each store's created at its first line); the block holding the packed cells' lists by
    /// item, if they joined one, and which of its days this is.</summary>
    private sealed class DayState(SealedDay? sealedCells, StoreDaySales?[]? tables, SealedBlock? block = null, int indexInBlock = 0)
    {
        public SealedDay? Sealed { get; } = sealedCells;

        public SealedBlock? Block { get; } = block;

        public int IndexInBlock { get; } = indexInBlock;

        /// <summary>Written by the recording thread only, before the first table in it is.</summary>
        public StoreDaySales?[]? Tables = tables;

        /// <summary>Which stores sold each item, and which sold two units or more: bit (store id - 1) % 64 of word
        /// key × 2 × StoreWords + (store id - 1) / 64, and StoreWords words later, set once the table holds those units,
        /// so a reader of an item looks up only the tables that sold more than one. Written by the recording thread
        /// only, after <see cref="Tables"/>.</summary>
        public ulong[]? StoresOfItem;

        public StoreDaySales? TableOf(int storeId) => Volatile.Read(ref Tables) is { } tables ? Volatile.Read(ref tables[storeId - 1]) : null;

        /// <summary>Each store's cells, packed and in tables added up, keys in ascending order; while nothing records.</summary>
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

    /// <summary>Cells gathered from packed cells (in order) and then a table (in a table's order), sorted and added up.</summary>
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

        /// <summary>The cells by key, a key given twice (packed and in a table) added up; the first
        /// <paramref name="inOrder"/> are in order already.</summary>
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
