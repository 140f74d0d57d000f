using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.SalesAggregator.Checkpoints;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesAggregator.Ledger;
using Supermarket.SalesAggregator.Questions;
using Supermarket.SalesCounting;
using Supermarket.Tests.Shared;

namespace Supermarket.SalesAggregator.Tests.Checkpoints;

/// <summary>The checkpoint's file: what is saved loads back whole, and any other file, whatever its length or content,
/// is discarded (the aggregator then rebuilds from the ledger) instead of being used or stopping the aggregator at
/// every start.</summary>
public sealed class SalesCheckpointTests : IDisposable
{
    /// <summary>Where the version sits: after the magic number.</summary>
    private const int VersionOffset = 4;

    private static readonly LedgerPosition Counted = new(20, new DateTime(2026, 11, 23, 20, 0, 0, 123));

    private static readonly Guid Ledger = Guid.CreateVersion7();

    /// <summary>A checkpoint's days when no line had one.</summary>
    private static readonly SavedSales NoDays = new(Days().TakeSnapshot(), UndatedUnits: 0);
    private readonly string _directory = Path.Combine(Path.GetTempPath(), $"checkpoint-tests-{Guid.NewGuid():N}");
    private readonly SalesCheckpoint _checkpoint;

    /// <summary>The base file of the matrix <see cref="Save(SalesByDay)"/> saved first.</summary>
    private string? _matrixBase;

    public SalesCheckpointTests() => _checkpoint = Checkpoint();

    [Fact]
    public void What_is_saved_loads_back()
    {
        var saved = Sold();
        _checkpoint.Save(Ledger, new SavedMatrix.Whole(saved), NoDays, Counted);

        var loaded = new SalesMatrix(50, 8, new ItemRange(1, 50));

        Assert.Equal(Counted, _checkpoint.TryLoad(Ledger, loaded, Days())?.Position);
        AssertSame(saved, loaded);
        Assert.Single(Directory.GetFiles(_directory));
    }

    [Fact]
    public void The_days_and_the_lines_without_a_day_load_back_with_the_matrix()
    {
        var day = new DateOnly(2021, 4, 1);
        var days = Days();
        days.RecordSales([new SaleLine(3, 7, 5, day), new SaleLine(3, 9, 2, day.AddDays(1)), new SaleLine(4, 7, 1, day.AddDays(1))]);
        _checkpoint.Save(Ledger, new SavedMatrix.Whole(Sold()), new SavedSales(days.TakeSnapshot(), UndatedUnits: 12), Counted);

        var loaded = Days();
        var checkpoint = _checkpoint.TryLoad(Ledger, new SalesMatrix(50, 8, new ItemRange(1, 50)), loaded);

        Assert.Equal((Counted, 12L), (checkpoint?.Position, checkpoint?.UndatedUnits));
        var best = new RankedSales[10];
        Assert.Equal([new RankedSales(7, 5), new RankedSales(9, 2)], best[..loaded.TopItemsAtStore(3, day, day.AddDays(1), best)]);
        Assert.Equal([new RankedSales(3, 2)], best[..loaded.TopStoresForItem(9, day, day.AddDays(5), best)]);
    }

    /// <summary>Packed days and blocks are files of their own, written once: a save with nothing packed since writes
    /// none, one after a packing writes just the new ones and deletes those no longer named, and every save loads back
    /// exactly (the same content, memory and rankings).</summary>
    [Fact]
    public void A_save_writes_only_the_days_packed_since_the_last_and_loads_back_exactly()
    {
        var days = EightDaysSaved();
        var first = PackedFiles();
        Assert.InRange(first.Count, 4, 8);
        AssertLoadsBack(days);

        Save(days);
        Assert.Equal(first, PackedFiles());

        // Two new days: packed with them, the older days form another block; the rest is written no more.
        days.RecordSales(Lines(firstDay: 8, dayCount: 2, seed: 2));
        days.Seal();
        Save(days);
        var third = PackedFiles();
        Assert.NotEqual(first.Keys, third.Keys);
        foreach (var (name, written) in third)
        {
            Assert.True(!first.TryGetValue(name, out var before) || before == written, $"{name} written again");
        }

        Assert.InRange(third.Keys.Except(first.Keys).Count(), 1, 4);
        AssertLoadsBack(days);

        // Lines not packed yet, of a day in a block and of the latest day: those days are saved in the checkpoint
        // itself, packed with their lines; the latest day's file, named no more, goes (the block stays: day 0 reads it).
        days.RecordSales([new SaleLine(2, 3, 9, Day(1)), new SaleLine(8, 50, 4, Day(9))]);
        Save(days);
        var fourth = PackedFiles();
        Assert.Equal(third.Count - 1, fourth.Count);
        Assert.Subset(third.Keys.ToHashSet(), fourth.Keys.ToHashSet());
        AssertLoadsBack(days, sameMemory: false);
    }

    /// <summary>A save beside a base writes the chunks changed since it, not the base again, and loads back as the
    /// matrix is, with the base's name and those chunks, so the next start saves beside the same base.</summary>
    [Fact]
    public void A_checkpoint_of_the_chunks_changed_since_its_base_loads_back_exactly_and_writes_no_base_again()
    {
        var matrix = SavedWithChangesSinceItsBase();
        var bases = PackedFiles();

        var loaded = new SalesMatrix(50, 8, new ItemRange(1, 50));
        var checkpoint = _checkpoint.TryLoad(Ledger, loaded, Days());

        AssertSame(matrix, loaded);
        Assert.Equal(Counted with { Seq = 30 }, checkpoint?.Position);
        Assert.Equal(bases.Keys.Single(), checkpoint?.Base?.Name);
        Assert.Equal([0, 41], checkpoint?.Base?.Changed.ChunkIndexes.ToArray() ?? []);
    }

    /// <summary>A checkpoint whose base file is gone or damaged is discarded whole: a rebuild, never the counters
    /// changed since on a matrix of zeros.</summary>
    [Fact]
    public void A_checkpoint_whose_base_is_missing_or_damaged_is_discarded_and_leaves_the_matrix_empty()
    {
        SavedWithChangesSinceItsBase();
        var path = Path.Combine(_checkpoint.PackedDays.Directory, PackedFiles().Keys.Single());
        var bytes = File.ReadAllBytes(path);
        bytes[^12] ^= 0x10;
        File.WriteAllBytes(path, bytes);
        var loaded = new SalesMatrix(50, 8, new ItemRange(1, 50));

        Assert.Null(Checkpoint().TryLoad(Ledger, loaded, Days()));
        AssertSame(new SalesMatrix(50, 8, new ItemRange(1, 50)), loaded);

        File.Delete(path);
        Assert.Null(Checkpoint().TryLoad(Ledger, loaded, Days()));
        AssertSame(new SalesMatrix(50, 8, new ItemRange(1, 50)), loaded);
    }

    /// <summary>A save beside a base makes the base's time now: a process that only saves what changed, for longer than
    /// <see cref="Supermarket.SalesCounting.PackedFiles.AbandonedAfter"/>, is still alive to a sibling's save, which
    /// must not delete its base. A save beside a base gone fails.</summary>
    [Fact]
    public void A_save_beside_a_base_keeps_its_folder_alive_and_fails_when_the_base_is_gone()
    {
        var name = _checkpoint.Save(Ledger, new SavedMatrix.Whole(Sold()), NoDays, Counted);
        var path = Path.Combine(_checkpoint.PackedDays.Directory, name);
        File.SetLastWriteTimeUtc(path, DateTime.UtcNow - Supermarket.SalesCounting.PackedFiles.AbandonedAfter - TimeSpan.FromHours(1));

        _checkpoint.Save(Ledger, new SavedMatrix.Changed(Sold(), name, MatrixDelta.None), NoDays, Counted);
        Checkpoint().Save(Ledger, new SavedMatrix.Whole(Sold()), NoDays, Counted);

        Assert.True(File.Exists(path));
        File.Delete(path);
        Assert.Throws<FileNotFoundException>(() => _checkpoint.Save(Ledger, new SavedMatrix.Changed(Sold(), name, MatrixDelta.None), NoDays, Counted));
    }

    /// <summary>A new base is written as a file of its own; the one before it goes once the checkpoint no longer
    /// names it.</summary>
    [Fact]
    public void A_new_base_replaces_the_one_before()
    {
        var first = _checkpoint.Save(Ledger, new SavedMatrix.Whole(Sold()), NoDays, Counted);
        var second = _checkpoint.Save(Ledger, new SavedMatrix.Whole(Sold()), NoDays, Counted);

        Assert.NotEqual(first, second);
        Assert.Equal([second], PackedFiles().Keys);
    }

    [Fact]
    public void A_checkpoint_whose_packed_day_is_missing_or_damaged_is_discarded_and_leaves_the_days_empty()
    {
        var days = EightDaysSaved();
        var path = Path.Combine(_checkpoint.PackedDays.Directory, PackedFiles().Keys.Where(name => name != _matrixBase).Order().First());
        var bytes = File.ReadAllBytes(path);

        bytes[bytes.Length / 2] ^= 0x20;
        File.WriteAllBytes(path, bytes);
        AssertDiscarded();

        bytes[bytes.Length / 2] ^= 0x20;
        File.WriteAllBytes(path, bytes);
        AssertLoadsBack(days);
        File.Delete(path);
        AssertDiscarded();

        void AssertDiscarded()
        {
            var loaded = DaysInBlocksOfTwo();
            Assert.Null(Checkpoint().TryLoad(Ledger, new SalesMatrix(50, 8, new ItemRange(1, 50)), loaded));
            Assert.Equal((null, 0L), (loaded.FirstDayKept, loaded.Bytes));
        }
    }

    /// <summary>Each process writes packed days into a folder of its own. A start deletes, in the folders no file was
    /// written into for a day (a process gone), the files its checkpoint does not name; what it names stays, and so do
    /// the files of a folder written into lately (a replica's, alive).</summary>
    [Fact]
    public void A_start_deletes_what_a_process_gone_left_and_its_checkpoint_does_not_name()
    {
        EightDaysSaved();
        var named = PackedFiles().Keys.Order().ToArray();
        var gone = Path.GetDirectoryName(Path.Combine(_checkpoint.PackedDays.Directory, named[0]))!;
        var crashed = Path.Combine(_checkpoint.PackedDays.Directory, "0123456789abcdef0123456789abcdef");
        var alive = Path.Combine(_checkpoint.PackedDays.Directory, "fedcba9876543210fedcba9876543210");
        File.WriteAllBytes(Path.Combine(gone, "00000000000000000000000000000001.packed"), [1, 2, 3]);
        Directory.CreateDirectory(crashed);
        File.WriteAllBytes(Path.Combine(crashed, "00000000000000000000000000000002.packed"), [1, 2, 3]);
        File.WriteAllBytes(Path.Combine(crashed, "00000000000000000000000000000003.packed.tmp"), [1, 2]);
        Directory.CreateDirectory(alive);
        File.WriteAllBytes(Path.Combine(alive, "00000000000000000000000000000004.packed"), [1, 2, 3]);
        foreach (var file in Directory.GetFiles(gone).Concat(Directory.GetFiles(crashed)))
        {
            File.SetLastWriteTimeUtc(file, DateTime.UtcNow - Supermarket.SalesCounting.PackedFiles.AbandonedAfter - TimeSpan.FromMinutes(1));
        }

        Assert.NotNull(Checkpoint().TryLoad(Ledger, new SalesMatrix(50, 8, new ItemRange(1, 50)), DaysInBlocksOfTwo()));

        string[] kept = [.. named, "fedcba9876543210fedcba9876543210/00000000000000000000000000000004.packed"];
        Assert.Equal(kept.Order(), PackedFiles().Keys.Order());
    }

    /// <summary>Eight days packed, six of them in blocks, saved in a checkpoint.</summary>
    private SalesByDay EightDaysSaved()
    {
        var days = DaysInBlocksOfTwo();
        days.RecordSales(Lines(firstDay: 0, dayCount: 8, seed: 1));
        days.Seal();
        Save(days);
        return days;
    }

    /// <summary>Saves the days beside <see cref="Sold"/>: a base the first time, beside it (nothing changed) after.</summary>
    private void Save(SalesByDay days) => _matrixBase = _checkpoint.Save(Ledger,
        _matrixBase is { } name ? new SavedMatrix.Changed(Sold(), name, MatrixDelta.None) : new SavedMatrix.Whole(Sold()),
        new SavedSales(days.TakeSnapshot(), UndatedUnits: 0), Counted);

    /// <summary>The packed files and when each was last written, but the base <see cref="Save(SalesByDay)"/> saved
    /// (each save beside it makes its time now).</summary>
    private Dictionary<string, DateTime> PackedFiles() =>
        Directory.GetFiles(_checkpoint.PackedDays.Directory, "*", SearchOption.AllDirectories)
            .Select(path => Path.GetRelativePath(_checkpoint.PackedDays.Directory, path))
            .Where(name => name != _matrixBase)
            .ToDictionary(name => name, name => File.GetLastWriteTimeUtc(Path.Combine(_checkpoint.PackedDays.Directory, name)));

    /// <summary>Loads the checkpoint into new days, by another aggregator's checkpoint of the same folder, and checks
    /// they hold what <paramref name="days"/> holds.</summary>
    private void AssertLoadsBack(SalesByDay days, bool sameMemory = true)
    {
        var loaded = DaysInBlocksOfTwo();
        Assert.Equal(Counted, Checkpoint().TryLoad(Ledger, new SalesMatrix(50, 8, new ItemRange(1, 50)), loaded)?.Position);
        Assert.Equal(days.Checksum(), loaded.Checksum());
        if (sameMemory)
        {
            Assert.Equal(days.Bytes, loaded.Bytes);
        }

        var (best, expected) = (new RankedSales[10], new RankedSales[10]);
        for (var from = 0; from < 10; from++)
        {
            for (var store = 1; store <= 8; store++)
            {
                Assert.Equal(expected[..days.TopItemsAtStore(store, Day(from), Day(9), expected)], best[..loaded.TopItemsAtStore(store, Day(from), Day(9), best)]);
            }

            for (var item = 1; item <= 50; item++)
            {
                Assert.Equal(expected[..days.TopStoresForItem(item, Day(from), Day(9), expected)], best[..loaded.TopStoresForItem(item, Day(from), Day(9), best)]);
            }
        }
    }

    private static SalesByDay DaysInBlocksOfTwo() => new(8, new ItemRange(1, 50), daysKept: 30, daysPerBlock: 2);

    private static DateOnly Day(int offset) => new DateOnly(2021, 4, 1).AddDays(offset);

    private static SaleLine[] Lines(int firstDay, int dayCount, int seed)
    {
        var random = new Random(seed);
        return [.. Enumerable.Range(0, 600).Select(i => new SaleLine(random.Next(1, 9), random.Next(1, 51), random.Next(1, 4), Day(firstDay + (i % dayCount))))];
    }

    /// <summary>A checkpoint written before the days were saved packed (their section in its first version,
    /// compressed) loads as it did: written by 14604a4 from <see cref="Sold"/> and the days of the test above.</summary>
    [Fact]
    public void A_checkpoint_with_days_of_the_first_version_still_loads()
    {
        const string Written = "U01DSwYAAACyoZMB1MNffoqbDB0uP0pbMgAAAAgAAAABAAAAMgAAABQAAAAAAAAAsGQNW5xJ3wjWAAAAAAAAAAwAAAAAAAAASgAAAAAAAACCmmmMKOX4EngBCnZyMWRkYGAAYSMGBgYOBjBoYGJgYIhw4gaLM0Pl2RkYGFjB0gwMkU7cDCA1MDlOBgYwHyTNgqQeZC5IDAAAAP//AwAASgNDeAFiZhgFoyEwGgKjITAaAqMhMBoCoyEwGgKjIUB+CLCTr3VUJ2AjKAQcnPjBvgUARXgAnA==";
        Directory.CreateDirectory(_directory);
        File.WriteAllBytes(_checkpoint.FilePath, Convert.FromBase64String(Written));
        var (matrix, days, day) = (new SalesMatrix(50, 8, new ItemRange(1, 50)), Days(), new DateOnly(2021, 4, 1));

        var checkpoint = _checkpoint.TryLoad(Guid.Parse("0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"), matrix, days);

        Assert.Equal(new LoadedCheckpoint(Counted, 12), checkpoint);
        Assert.Null(checkpoint?.Base);
        AssertSame(Sold(), matrix);
        var best = new RankedSales[10];
        Assert.Equal([new RankedSales(7, 5), new RankedSales(9, 2)], best[..days.TopItemsAtStore(3, day, day.AddDays(1), best)]);
        Assert.Equal([new RankedSales(3, 5), new RankedSales(4, 1)], best[..days.TopStoresForItem(7, day, day.AddDays(5), best)]);
    }

    [Fact]
    public void Each_shard_keeps_a_checkpoint_of_its_own_in_a_shared_folder()
    {
        var shards = new SalesShardOptions { Count = 2 };
        var first = new SalesMatrix(50, 8, shards.ItemsOf(1, 50));
        var second = new SalesMatrix(50, 8, shards.ItemsOf(2, 50));
        first.RecordSales([new SaleLine(3, 7, 5)]);
        second.RecordSales([new SaleLine(3, 40, 9)]);
        Checkpoint(shard: 1, shards: 2).Save(Ledger, new SavedMatrix.Whole(first), NoDays, Counted);
        Checkpoint(shard: 2, shards: 2).Save(Ledger, new SavedMatrix.Whole(second), NoDays, Counted with { Seq = 21 });

        var loaded = new SalesMatrix(50, 8, shards.ItemsOf(2, 50));

        Assert.Equal(21, Checkpoint(shard: 2, shards: 2).TryLoad(Ledger, loaded, Days())?.Position.Seq);
        Assert.Equal(9, loaded.UnitsSold(storeId: 3, itemId: 40));
        Assert.Null(_checkpoint.TryLoad(Ledger, new SalesMatrix(50, 8, new ItemRange(1, 50)), Days())?.Position);
        Assert.Equal(2, Directory.GetFiles(_directory).Length);
    }

    /// <summary>A shard's file is named for its shard and the shard count, not its items: were the items split
    /// otherwise (SalesShardOptions.ItemsOf changed, with the catalog's size the same), the file of the same name holds
    /// another range's counters, of the same size and with a valid checksum (#57).</summary>
    [Fact]
    public void A_checkpoint_of_another_item_range_of_the_same_size_is_discarded()
    {
        var checkpoint = Checkpoint(shard: 1, shards: 2);
        var saved = new SalesMatrix(50, 8, new ItemRange(1, 25));
        saved.RecordSales([new SaleLine(3, 7, 5)]);
        checkpoint.Save(Ledger, new SavedMatrix.Whole(saved), NoDays, Counted);

        var shifted = new SalesMatrix(50, 8, new ItemRange(26, 50));

        Assert.Null(checkpoint.TryLoad(Ledger, shifted, Days())?.Position);
        AssertSame(new SalesMatrix(50, 8, new ItemRange(26, 50)), shifted);
    }

    [Fact]
    public void A_checkpoint_cut_short_at_any_length_is_discarded_and_leaves_the_matrix_empty()
    {
        _checkpoint.Save(Ledger, new SavedMatrix.Whole(Sold()), NoDays, Counted);
        var whole = File.ReadAllBytes(_checkpoint.FilePath);

        for (var length = 0; length < whole.Length; length++)
        {
            File.WriteAllBytes(_checkpoint.FilePath, whole[..length]);
            var loaded = new SalesMatrix(50, 8, new ItemRange(1, 50));
            loaded.RecordSales([new SaleLine(1, 1, 1)]);

            Assert.Null(_checkpoint.TryLoad(Ledger, loaded, Days())?.Position);
            AssertSame(new SalesMatrix(50, 8, new ItemRange(1, 50)), loaded);
        }
    }

    [Theory]
    [InlineData(0x01)]
    [InlineData(0x80)]
    [InlineData(0xFF)]
    public void A_checkpoint_with_any_byte_changed_loads_whole_or_is_discarded(byte flip)
    {
        var saved = SavedWithChangesSinceItsBase();
        var whole = File.ReadAllBytes(_checkpoint.FilePath);

        for (var at = 0; at < whole.Length; at++)
        {
            var damaged = whole.ToArray();
            damaged[at] ^= flip;
            File.WriteAllBytes(_checkpoint.FilePath, damaged);
            var loaded = new SalesMatrix(50, 8, new ItemRange(1, 50));

            if (_checkpoint.TryLoad(Ledger, loaded, Days())?.Position is { } position)
            {
                Assert.Equal(Counted with { Seq = 30 }, position);
                AssertSame(saved, loaded);
            }
            else
            {
                AssertSame(new SalesMatrix(50, 8, new ItemRange(1, 50)), loaded);
            }
        }
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    [InlineData(8)]
    [InlineData(int.MaxValue)]
    [InlineData(-1)]
    public void A_checkpoint_of_another_version_is_discarded(int version)
    {
        _checkpoint.Save(Ledger, new SavedMatrix.Whole(Sold()), NoDays, Counted);
        using (var file = File.OpenWrite(_checkpoint.FilePath))
        {
            file.Position = VersionOffset;
            file.Write(BitConverter.GetBytes(version));
        }

        Assert.Null(_checkpoint.TryLoad(Ledger, new SalesMatrix(50, 8, new ItemRange(1, 50)), Days())?.Position);
    }

    [Fact]
    public void Random_bytes_and_an_empty_file_are_discarded()
    {
        var random = new Random(42);
        foreach (var length in new[] { 0, 1, 7, 44, 60, 4096 })
        {
            var bytes = new byte[length];
            random.NextBytes(bytes);
            Directory.CreateDirectory(_directory);
            File.WriteAllBytes(_checkpoint.FilePath, bytes);

            Assert.Null(_checkpoint.TryLoad(Ledger, new SalesMatrix(50, 8, new ItemRange(1, 50)), Days())?.Position);
        }
    }

    [Fact]
    public void Two_aggregators_saving_into_one_folder_at_once_both_succeed_and_leave_one_whole_checkpoint()
    {
        var (first, second) = (Checkpoint(), Checkpoint());
        // Large enough that two saves overlap.
        var saved = new SalesMatrix(2_000, 256, new ItemRange(1, 2_000));
        var random = new Random(7);
        saved.RecordSales([.. Enumerable.Range(0, 100_000).Select(_ => new SaleLine(random.Next(1, 257), random.Next(1, 2_001), random.Next(1, 1_000)))]);

        // Each saves one at a time, as an aggregator's feed does (a save deletes the bases of its process it does not
        // name), the two at once.
        Parallel.For(0, 2, new ParallelOptions { MaxDegreeOfParallelism = 2 }, i =>
        {
            for (var save = 0; save < 20; save++)
            {
                (i == 0 ? first : second).Save(Ledger, new SavedMatrix.Whole(saved), NoDays, Counted);
            }
        });

        var loaded = new SalesMatrix(2_000, 256, new ItemRange(1, 2_000));
        Assert.Equal(Counted, _checkpoint.TryLoad(Ledger, loaded, Days())?.Position);
        AssertSame(saved, loaded);
        Assert.Single(Directory.GetFiles(_directory));
    }

    public void Dispose()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    private SalesCheckpoint Checkpoint(int shard = 1, int shards = 1) =>
        new(Options.Create(new AggregatorOptions { CheckpointDirectory = _directory, Shard = shard }), Options.Create(new SalesShardOptions { Count = shards }),
            NullLogger<SalesCheckpoint>.Instance);

    /// <summary>Saves <see cref="Sold"/> as a base, then a checkpoint of the chunks two more lines changed (the first
    /// chunk, and the last but one at item 42's store 3), as the feed does; returns the matrix they make.</summary>
    private SalesMatrix SavedWithChangesSinceItsBase()
    {
        var matrix = Sold();
        var changes = new MatrixChanges(matrix);
        var name = _checkpoint.Save(Ledger, new SavedMatrix.Whole(Sold()), NoDays, Counted);
        SaleLine[] later = [new(2, 1, 4), new(3, 42, 1)];
        matrix.RecordSales(later);
        changes.Mark(later);

        Assert.Equal(name, _checkpoint.Save(Ledger, new SavedMatrix.Changed(matrix, name, changes.Take()), NoDays, Counted with { Seq = 30 }));
        return matrix;
    }

    private static SalesMatrix Sold()
    {
        var matrix = new SalesMatrix(50, 8, new ItemRange(1, 50));
        matrix.RecordSales([new SaleLine(3, 42, 7), new SaleLine(8, 50, 1_000_000), new SaleLine(1, 1, 3)]);
        return matrix;
    }

    /// <summary>Every counter equal: both save the same bytes. (Not by <see cref="SalesMatrix.Checksum"/>: the checkpoint
    /// checks what it loads by that hash itself.)</summary>
    private static void AssertSame(SalesMatrix expected, SalesMatrix actual) => Assert.Equal(Saved(expected), Saved(actual));

    private static byte[] Saved(SalesMatrix matrix)
    {
        using var file = new MemoryStream();
        matrix.Save(file);
        return file.ToArray();
    }

    private static SalesByDay Days() => new(8, new ItemRange(1, 50), daysKept: 30);
}
