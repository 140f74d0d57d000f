using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Checkpoints;

/// <summary>The matrix and the days saved with the position they counted through, which the feed reads on from
/// (docs/architecture.md, "Guarantees"). Another database's, catalog's or item range's is not used; one ahead of a
/// restored database fails the feed's check of its last entry; any damage costs a rebuild, never a wrong count.</summary>
public sealed class SalesCheckpoint(IOptions<AggregatorOptions> options, IOptions<SalesShardOptions> shards, ILogger<SalesCheckpoint> logger)
{
    private const int Magic = 0x4B43_4D53; // "SMCK"
    // 7 names a base file and holds the chunks changed since; 6 (every counter inline) is still read.
    private const int Version = 7;
    private const int WholeMatrixVersion = 6;
    private const int HeaderLength = 4 + 4 + 16 + 4 + 4 + 4 + 4 + 8 + 8 + 8 + 8 + 8;

    private readonly string _path = PathOf(options.Value, shards.Value);

    public string FilePath => _path;

    public PackedFiles PackedDays { get; } = new($"{PathOf(options.Value, shards.Value)}.days");

    private static string PathOf(AggregatorOptions options, SalesShardOptions shards) => Path.Combine(options.CheckpointDirectory,
        shards.Count == 1 ? "sales-matrix.checkpoint" : $"sales-matrix.shard-{options.Shard}-of-{shards.Count}.checkpoint");

    /// <summary>Null, both empty, without a whole checkpoint of this ledger; never throws for what it holds.</summary>
    public LoadedCheckpoint? TryLoad(Guid ledgerId, SalesMatrix matrix, SalesByDay days)
    {
        var loaded = File.Exists(_path) ? LoadOrDiscard(ledgerId, matrix, days) : null;
        // Once the checkpoint is read: files a process gone left, and it does not name, are deleted.
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
            // Any damage, whatever the reader makes of it, costs a rebuild, not a start.
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
        var (undatedUnits, daysLength) = (reader.ReadInt64(), reader.ReadInt64());
        if (length != file.Length || daysLength < 0 || daysLength > length)
        {
            logger.LogWarning("{Path} holds {Found} bytes where it was saved with {Saved}; rebuilding from the whole ledger", _path, file.Length, length);
            return null;
        }

        var checksum = ReadChecksum(file);
        var (baseName, baseNameChecksum) = (default(string), 0UL);
        if (version == Version)
        {
            // The base first: a process that saves a new one deletes this one once its checkpoint replaced this file.
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

        return new LoadedCheckpoint(new LedgerPosition(seq, new DateTime(storedAt)), undatedUnits) { Base = matrixBase };
    }

    public string Save(Guid ledgerId, SavedMatrix matrix, SavedSales byDay, LedgerPosition position)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(_path)!);
        var (baseName, changed) = matrix switch
        {
            SavedMatrix.Whole whole => (PackedDays.WriteNew(whole.Copy.Save), MatrixDelta.None),
            SavedMatrix.Changed since => (Touched(since.Base), since.Delta),
            _ => throw new ArgumentOutOfRangeException(nameof(matrix)),
        };

        // Unique, so another aggregator saving into the same folder never writes into it or moves it away.
        var temporary = $"{_path}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp";
        IReadOnlySet<string> named;
        try
        {
            using (var stored = File.Create(temporary))
            using (var file = new BufferedStream(stored, 1 << 20))
            {
                // The header last, once the file's length is known; the changed counters at the end: their
                // decompressor may read past them.
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
                // On disk before the rename: a crash after it must find the new checkpoint whole.
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

    // Made recent, so another process does not take a live one's base for abandoned; a base gone fails the save.
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

    private static ulong Checksum(byte[] header, ulong days, ulong matrix) =>
        System.IO.Hashing.XxHash3.HashToUInt64(header, unchecked((long)(matrix ^ days)));
}
