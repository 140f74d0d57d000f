using Microsoft.Extensions.Options;
using Supermarket.SalesCounting;
using Supermarket.SalesAggregator.Questions;

namespace Supermarket.SalesAggregator.Ledger;

/// <summary>
/// The matrix saved to a file with the ledger entries it holds, so a restart reads the checkpoint and only the
/// entries stored after it instead of all of history (start-up bounded whatever the history).
/// </summary>
/// <remarks>
/// A checkpoint names the ledger it came from (<c>ledger_identity</c>) and the matrix's size: one taken from another
/// database (reset, restored) or another catalog is not used. It is written to a temporary file and renamed over the
/// previous one, so a crash mid-write leaves the previous checkpoint whole.
/// </remarks>
public sealed class SalesCheckpoint(IOptions<AggregatorOptions> options, ILogger<SalesCheckpoint> logger)
{
    private const int Magic = 0x4B43_4D53; // "SMCK"
    private const int Version = 1;

    private readonly string _path = Path.Combine(options.Value.CheckpointDirectory, "sales-matrix.checkpoint");

    public string FilePath => _path;

    /// <summary>Fills <paramref name="matrix"/> from the checkpoint of <paramref name="ledgerId"/> and returns the
    /// entries it holds; null (matrix untouched) when there is no usable checkpoint.</summary>
    public AppliedEntries? TryLoad(Guid ledgerId, SalesMatrix matrix, DateTimeOffset now)
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

        var max = reader.ReadInt64();
        var gaps = new (long, long)[reader.ReadInt32()];
        for (var i = 0; i < gaps.Length; i++)
        {
            gaps[i] = (reader.ReadInt64(), reader.ReadInt64());
        }

        matrix.Load(file);
        return AppliedEntries.Restore(max, gaps, now);
    }

    /// <summary>Writes <paramref name="matrix"/> (a copy nothing records into while this runs) and the entries it holds.</summary>
    public void Save(Guid ledgerId, SalesMatrix matrix, long max, IReadOnlyList<(long From, long To)> gaps)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(_path)!);
        var temporary = _path + ".tmp";
        using (var file = new BufferedStream(File.Create(temporary), 1 << 20))
        {
            using (var writer = new BinaryWriter(file, System.Text.Encoding.UTF8, leaveOpen: true))
            {
                writer.Write(Magic);
                writer.Write(Version);
                writer.Write(ledgerId.ToByteArray());
                writer.Write(matrix.MaxItemId);
                writer.Write(matrix.MaxStores);
                writer.Write(max);
                writer.Write(gaps.Count);
                foreach (var (from, to) in gaps)
                {
                    writer.Write(from);
                    writer.Write(to);
                }
            }

            matrix.Save(file);
        }

        File.Move(temporary, _path, overwrite: true);
    }
}
