using Microsoft.Extensions.Options;
using Supermarket.SalesCounting;
using Supermarket.SalesAggregator.Questions;

namespace Supermarket.SalesAggregator.Ledger;

/// <summary>
/// The matrix saved to a file with how far through the ledger it counted, so a restart reads the checkpoint and only
/// the entries stored after it instead of all of history (start-up bounded whatever the history).
/// </summary>
/// <remarks>
/// A checkpoint names the ledger it came from (<c>ledger_identity</c>), the last entry it counted (seq and stored_at)
/// and the matrix's size: one taken from another database or catalog is not used, and one ahead of a database
/// restored from a backup (which brings its <c>ledger_identity</c> back) is refused by the feed's check of that entry.
/// It is written to a temporary file, flushed to disk and renamed over the previous one, so a crash at any point
/// leaves one whole checkpoint; a damaged one costs a rebuild, never a wrong count.
/// </remarks>
public sealed class SalesCheckpoint(IOptions<AggregatorOptions> options, ILogger<SalesCheckpoint> logger)
{
    private const int Magic = 0x4B43_4D53; // "SMCK"
    // 2: the position (seq and stored_at of the last entry counted) instead of the highest seq and its gaps.
    // 3: the counters item-major (SalesMatrix), where version 2 tiled them.
    private const int Version = 3;

    private readonly string _path = Path.Combine(options.Value.CheckpointDirectory, "sales-matrix.checkpoint");

    public string FilePath => _path;

    /// <summary>Fills <paramref name="matrix"/> from the checkpoint of <paramref name="ledgerId"/> and returns how far
    /// through the ledger it had counted; null (matrix untouched) when there is no usable checkpoint.</summary>
    /// <exception cref="InvalidDataException">The file is damaged: a rebuild from the whole ledger is the way on.</exception>
    public LedgerPosition? TryLoad(Guid ledgerId, SalesMatrix matrix)
    {
        if (!File.Exists(_path))
        {
            return null;
        }

        using var file = new BufferedStream(File.OpenRead(_path), 1 << 20);
        using var reader = new BinaryReader(file);
        if (reader.ReadInt32() != Magic || reader.ReadInt32() != Version)
        {
            logger.LogWarning("{Path} is not a checkpoint this version reads; rebuilding from the whole ledger", _path);
            return null;
        }

        var savedLedger = new Guid(reader.ReadBytes(16));
        var (maxItemId, maxStores) = (reader.ReadInt32(), reader.ReadInt32());
        if (savedLedger != ledgerId || maxItemId != matrix.MaxItemId || maxStores != matrix.MaxStores)
        {
            logger.LogWarning("{Path} was taken from another database or catalog (ledger {Saved}, {Items} items × {Stores} stores); rebuilding from the whole ledger",
                _path, savedLedger, maxItemId, maxStores);
            return null;
        }

        var (seq, storedAt) = (reader.ReadInt64(), reader.ReadInt64());
        if (seq < 0 || storedAt < 0 || storedAt > DateTime.MaxValue.Ticks)
        {
            throw new InvalidDataException($"{_path} says it counted through seq {seq}, stored at {storedAt} ticks");
        }

        matrix.Load(file);
        return new LedgerPosition(seq, new DateTime(storedAt));
    }

    /// <summary>Writes <paramref name="matrix"/> (a copy nothing records into while this runs) and how far it counted.</summary>
    public void Save(Guid ledgerId, SalesMatrix matrix, LedgerPosition position)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(_path)!);
        var temporary = _path + ".tmp";
        using (var stored = File.Create(temporary))
        using (var file = new BufferedStream(stored, 1 << 20))
        {
            using (var writer = new BinaryWriter(file, System.Text.Encoding.UTF8, leaveOpen: true))
            {
                writer.Write(Magic);
                writer.Write(Version);
                writer.Write(ledgerId.ToByteArray());
                writer.Write(matrix.MaxItemId);
                writer.Write(matrix.MaxStores);
                writer.Write(position.Seq);
                writer.Write(position.StoredAt.Ticks);
            }

            matrix.Save(file);
            file.Flush();
            // On disk before the rename replaces the previous checkpoint: a crash after it must find the new one whole.
            stored.Flush(flushToDisk: true);
        }

        File.Move(temporary, _path, overwrite: true);
    }
}
