using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Supermarket.SalesAggregator.Ledger;
using Supermarket.SalesAggregator.Questions;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Tests.Ledger;

/// <summary>The checkpoint's file: what is saved loads back, and a damaged file is reported as such (the aggregator
/// then rebuilds from the ledger) instead of being used or crashing the aggregator at every start.</summary>
public sealed class SalesCheckpointTests : IDisposable
{
    /// <summary>Where the position sits: after magic, version, ledger id and the matrix's two sizes.</summary>
    private const int PositionOffset = 4 + 4 + 16 + 4 + 4;

    private static readonly LedgerPosition Counted = new(20, new DateTime(2026, 11, 23, 20, 0, 0, 123));

    private static readonly Guid Ledger = Guid.CreateVersion7();
    private readonly string _directory = Path.Combine(Path.GetTempPath(), $"checkpoint-tests-{Guid.NewGuid():N}");
    private readonly SalesCheckpoint _checkpoint;

    public SalesCheckpointTests() =>
        _checkpoint = new SalesCheckpoint(Options.Create(new AggregatorOptions { CheckpointDirectory = _directory }), NullLogger<SalesCheckpoint>.Instance);

    [Fact]
    public void What_is_saved_loads_back()
    {
        var saved = new SalesMatrix(100, 10);
        saved.Record(3, 42, 7);
        _checkpoint.Save(Ledger, saved, Counted);

        var loaded = new SalesMatrix(100, 10);

        Assert.Equal(Counted, _checkpoint.TryLoad(Ledger, loaded));
        Assert.Equal(7, loaded.UnitsSold(3, 42));
        Assert.False(File.Exists(_checkpoint.FilePath + ".tmp"));
    }

    [Theory]
    [InlineData(-1L, 0L)]
    [InlineData(20L, -5L)]
    [InlineData(20L, long.MaxValue)]
    public void A_position_no_ledger_can_have_is_damage(long seq, long storedAtTicks)
    {
        _checkpoint.Save(Ledger, new SalesMatrix(100, 10), Counted);
        Overwrite(PositionOffset, [.. BitConverter.GetBytes(seq), .. BitConverter.GetBytes(storedAtTicks)]);

        Assert.Throws<InvalidDataException>(() => _checkpoint.TryLoad(Ledger, new SalesMatrix(100, 10)));
    }

    [Fact]
    public void A_checkpoint_cut_short_is_damage_not_a_partial_matrix()
    {
        _checkpoint.Save(Ledger, new SalesMatrix(100, 10), Counted);
        using (var file = File.OpenWrite(_checkpoint.FilePath))
        {
            file.SetLength(file.Length / 2);
        }

        var damage = Assert.ThrowsAny<Exception>(() => _checkpoint.TryLoad(Ledger, new SalesMatrix(100, 10)));
        Assert.True(damage is IOException or InvalidDataException, $"{damage.GetType().Name}: the aggregator would not rebuild after it");
    }

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    private void Overwrite(int offset, byte[] bytes)
    {
        using var file = File.OpenWrite(_checkpoint.FilePath);
        file.Position = offset;
        file.Write(bytes);
    }
}
