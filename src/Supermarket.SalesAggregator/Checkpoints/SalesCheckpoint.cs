using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.SalesAggregator.Ledger;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Checkpoints;

/// <summary>
/// The matrix and the days (<see cref="SalesByDay"/>) saved to a file with how far through the ledger they counted, so a restart reads the checkpoint and only
/// the entries stored after it instead of all of history (start-up bounded whatever the history).
/// </summary>
/// <remarks>
/// A checkpoint names the ledger it came from (<c>ledger_identity</c>), the last entry it counted (seq and stored_at),
/// the matrix's size and the items it counts: one taken from another database, catalog or split of the items among
/// shards is not used (a shard's file is named for its shard and the shard count, which do not fix its items once
/// SalesShardOptions.ItemsOf changes), and one ahead of a database
/// restored from a backup (which brings its <c>ledger_identity</c> back) is refused by the feed's check of that entry.
/// A checksum covers the header and every counter, so a file damaged in any way is discarded rather than loaded; a
/// discarded checkpoint costs a rebuild from the ledger, never a wrong count and never a failed start. Each save writes
/// a temporary file of its own, flushes it to disk and renames it over the previous checkpoint: a crash at any point
/// leaves one whole checkpoint, and two aggregators sharing the folder (a shard's replicas, a rolling restart) each
/// replace it whole. The matrix's base copy and the packed days and blocks are files of their own
/// (<see cref="PackedDays"/>, a folder a process), each written once before a checkpoint names it, so a save writes the
/// chunks of the matrix changed since its base, the days' lines since they were packed, and only what was packed since
/// the last save; a file missing or damaged costs a rebuild like any damage (docs/architecture.md, "A checkpoint saves
/// what changed" and "Sales over a range of days").
/// </remarks>
public sealed class SalesCheckpoint(IOptions<AggregatorOptions> options, IOptions<SalesShardOptions> shards, ILogger<SalesCheckpoint> logger)
{
    private const int Magic = 0x4B43_4D53; // "SMCK"
    // 2: the position (seq and stored_at of the last entry counted) instead of the highest seq and its gaps.
    // 3: the counters item-major (SalesMatrix), where version 2 tiled them.
    // 4: the file's length and a checksum of the header and the counters.
    // 5: the item range the counters are of (a shard's, or the whole catalog's).
    // 6: the sales of each day before the counters, and the lines counted without a day; a version 5 file is rebuilt
    //    from the ledger, which is what gives its days back. The days' section has a version of its own
    //    (SalesByDaySnapshot's; SalesByDay.Load reads each).
    // 7: the matrix as the name of a base file (PackedFiles) and the chunks changed since its copy was taken, where
    //    version 6, still read, held every counter.
    private const int Version = 7;
    private const int WholeMatrixVersion = 6;
    private const int HeaderLength = 4 + 4 + 16 + 4 + 4 + 4 + 4 + 8 + 8 + 8 + 8 + 8;

    private readonly string _path = PathOf(options.Value, shards.Value);

    public string FilePath => _path;

    /// <summary>The matrix's bases and the packed days and blocks, each written once into a file of its own in a folder
    /// beside the checkpoint, which names them.</summary>
    public PackedFiles PackedDays { get; } = new($"{PathOf(options.Value, shards.Value)}.days");

    private static string PathOf(AggregatorOptions options, SalesShardOptions shards) => Path.Combine(options.CheckpointDirectory,
        shards.Count == 1 ? "sales-matrix.checkpoint" : $"sales-matrix.shard-{options.Shard}-of-{shards.Count}.checkpoint");

    /// <summary>Fills <paramref name="matrix"/> and <paramref name="days"/> from the checkpoint of
    /// <paramref name="ledgerId"/> and returns how far through the ledger they had counted; null, with both empty, when
    /// there is no whole checkpoint of this ledger and catalog. Never throws for what the file holds.</summary>
    public LoadedCheckpoint? TryLoad(Guid ledgerId, SalesMatrix matrix, SalesByDay days)
    {
        var loaded = File.Exists(_path) ? LoadOrDiscard(ledgerId, matrix, days) : null;
        // Once the checkpoint is read: the packed days a process gone left, and it does not name, go.
        PackedDays.DeleteAbandoned();
        return loaded;
    }

    private LoadedCheckpoint? LoadOrDiscard(Guid ledgerId, SalesMatrix matrix, SalesByDay days)
    {
        try
        {
            if (Load(ledgerId, matrix, days) is { } loaded)
            {
                return loaded;
            }
        }
        catch (Exception exception) when (exception is not OutOfMemoryException)
        {
            // Any damage, whatever the decompressor or the reader makes of it, costs a rebuild, not a start.
            logger.LogWarning(exception, "The checkpoint {Path} could not be read; rebuilding from the whole ledger", _path);
        }

        matrix.Clear();
        days.Clear();
        return null;
    }

    private LoadedCheckpoint? Load(Guid ledgerId, SalesMatrix matrix, SalesByDay days)
    {
        using var file = new BufferedStream(File.OpenRead(_path), 1 << 20);
        var header = new byte[HeaderLength];
        file.ReadExactly(header);
        using var reader = new BinaryReader(new MemoryStream(header));
        var (magic, version) = (reader.ReadInt32(), reader.ReadInt32());
        if (magic != Magic || version is not (Version or WholeMatrixVersion))
        {
            logger.LogWarning("{Path} is not a checkpoint this version reads; rebuilding from the whole ledger", _path);
            return null;
        }

        var savedLedger = new Guid(reader.ReadBytes(16));
        var (maxItemId, maxStores) = (reader.ReadInt32(), reader.ReadInt32());
        var items = new ItemRange(reader.ReadInt32(), reader.ReadInt32());
        if (savedLedger != ledgerId || maxItemId != matrix.MaxItemId || maxStores != matrix.MaxStores || items != matrix.Items)
        {
            logger.LogWarning("{Path} was taken from another database, catalog or shard (ledger {Saved}, items {Range} of {Items} × {Stores} stores); rebuilding from the whole ledger",
                _path, savedLedger, items, maxItemId, maxStores);
            return null;
        }

        var (seq, storedAt, length) = (reader.ReadInt64(), reader.ReadInt64(), reader.ReadInt64());
        var (undatedLines, daysLength) = (reader.ReadInt64(), reader.ReadInt64());
        if (length != file.Length || daysLength < 0 || daysLength > length)
        {
            logger.LogWarning("{Path} holds {Found} bytes where it was saved with {Saved}; rebuilding from the whole ledger", _path, file.Length, length);
            return null;
        }

        // The days are read as they stream past, hashed on the way; what a damaged file loaded is dropped below.
        var checksum = ReadChecksum(file);
        var (baseName, baseNameChecksum) = (default(string), 0UL);
        if (version == Version)
        {
            // The base first: a process that saves a new one deletes this one once its checkpoint replaced this file.
            // The base's file checks its own checksum; its name and the chunks changed since are this file's.
            var savedBase = ChecksummedStream.Reading(file, length - file.Position);
            baseName = new BinaryReader(savedBase).ReadString();
            baseNameChecksum = savedBase.Checksum;
            PackedDays.Read(baseName, matrix.Load);
        }

        var savedDays = ChecksummedStream.Reading(file, daysLength);
        days.Load(savedDays, PackedDays);
        savedDays.ReadToLimit();
        MatrixBase? matrixBase = null;
        ulong matrixChecksum;
        if (baseName is null)
        {
            matrix.Load(file);
            matrixChecksum = matrix.Checksum();
        }
        else
        {
            var savedChanges = ChecksummedStream.Reading(file, length - file.Position);
            var changed = MatrixDelta.ReadFrom(savedChanges, matrix);
            savedChanges.ReadToLimit();
            changed.ApplyTo(matrix);
            (matrixBase, matrixChecksum) = (new MatrixBase(baseName, changed), baseNameChecksum ^ savedChanges.Checksum);
        }

        if (savedDays.Through != daysLength || file.ReadByte() != -1 || checksum != Checksum(header, savedDays.Checksum, matrixChecksum))
        {
            logger.LogWarning("{Path} does not match its checksum: it was damaged; rebuilding from the whole ledger", _path);
            return null;
        }

        if (seq < 0 || storedAt < 0 || storedAt > DateTime.MaxValue.Ticks)
        {
            logger.LogWarning("{Path} says it counted through seq {Seq}, stored at {StoredAt} ticks; rebuilding from the whole ledger", _path, seq, storedAt);
            return null;
        }

        return new LoadedCheckpoint(new LedgerPosition(seq, new DateTime(storedAt)), undatedLines) { Base = matrixBase };
    }

    /// <summary>Writes <paramref name="matrix"/> (a whole copy nothing records into while this runs, written into a base
    /// file of its own, or the chunks changed since a base saved before), the days as of the same position, and how far
    /// they counted. Returns the name of the base file the checkpoint names.</summary>
    public string Save(Guid ledgerId, SavedMatrix matrix, SavedSales byDay, LedgerPosition position)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(_path)!);
        var (baseName, changed) = matrix switch
        {
            SavedMatrix.Whole whole => (PackedDays.WriteNew(whole.Copy.Save), MatrixDelta.None),
            SavedMatrix.Changed since => (Touched(since.Base), since.Delta),
            _ => throw new ArgumentOutOfRangeException(nameof(matrix)),
        };

        // Unique, so another aggregator saving into the same folder never writes into this file or moves it away.
        var temporary = $"{_path}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp";
        IReadOnlySet<string> named;
        try
        {
            using (var stored = File.Create(temporary))
            using (var file = new BufferedStream(stored, 1 << 20))
            {
                // The base's name, the days and the changed counters first, behind room for the header, which then
                // records the file's length. The changed counters last: their decompressor may read past their end.
                file.Position = HeaderLength + sizeof(ulong);
                var savedBase = ChecksummedStream.Writing(file);
                using (var writer = new BinaryWriter(savedBase, System.Text.Encoding.UTF8, leaveOpen: true))
                {
                    writer.Write(baseName);
                }

                var savedDays = ChecksummedStream.Writing(file);
                named = new HashSet<string>(byDay.Days.WriteTo(savedDays, PackedDays)) { baseName };
                var savedChanges = ChecksummedStream.Writing(file);
                changed.WriteTo(savedChanges);
                file.Flush();
                var header = Header(ledgerId, matrix.Shape, byDay.UndatedUnits, savedDays.Through, position, length: stored.Length);
                file.Position = 0;
                file.Write(header);
                file.Write(BitConverter.GetBytes(Checksum(header, savedDays.Checksum, savedBase.Checksum ^ savedChanges.Checksum)));
                file.Flush();
                // On disk before the rename replaces the previous checkpoint: a crash after it must find the new one whole.
                stored.Flush(flushToDisk: true);
            }

            File.Move(temporary, _path, overwrite: true);
        }
        finally
        {
            File.Delete(temporary);
        }

        // Once the checkpoint that no longer names them is in place.
        PackedDays.DeleteAllBut(named);
        return baseName;
    }

    /// <summary>The base's time made now: its folder is a live process's, whose files another's start or save must
    /// not take for abandoned however long it saves only what changed. A base gone fails the save (and the feed's next
    /// save takes a new one).</summary>
    private string Touched(string baseName)
    {
        PackedDays.Touch(baseName);
        return baseName;
    }

    private static byte[] Header(Guid ledgerId, SalesMatrix matrix, long undatedUnits, long daysLength, LedgerPosition position, long length)
    {
        var header = new byte[HeaderLength];
        using var writer = new BinaryWriter(new MemoryStream(header));
        writer.Write(Magic);
        writer.Write(Version);
        writer.Write(ledgerId.ToByteArray());
        writer.Write(matrix.MaxItemId);
        writer.Write(matrix.MaxStores);
        writer.Write(matrix.Items.First);
        writer.Write(matrix.Items.Last);
        writer.Write(position.Seq);
        writer.Write(position.StoredAt.Ticks);
        writer.Write(length);
        writer.Write(undatedUnits);
        writer.Write(daysLength);
        return header;
    }

    private static ulong ReadChecksum(Stream file)
    {
        Span<byte> checksum = stackalloc byte[8];
        file.ReadExactly(checksum);
        return BitConverter.ToUInt64(checksum);
    }

    /// <summary>The header's hash seeded with the matrix's and the days' (<see cref="ChecksummedStream"/>'s XXH3 of
    /// their bytes; in version 6, of the counters).</summary>
    private static ulong Checksum(byte[] header, ulong days, ulong matrix) =>
        System.IO.Hashing.XxHash3.HashToUInt64(header, unchecked((long)(matrix ^ days)));
}
