using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;
using Supermarket.SalesAggregator.Checkpoints;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesAggregator.Ledger;
using Supermarket.SalesAggregator.Questions;
using Supermarket.SalesAggregator.Sharding;
using Supermarket.SalesCounting;
using Supermarket.Tests.Shared;

namespace Supermarket.SalesAggregator.Tests.Ledger;

/// <summary>The feed keeps the matrix equal to the ledger: each entry once, none skipped, across restarts and a
/// restored database. The ledger is in memory here; the integration suite runs the same against MySQL.</summary>
public sealed class SalesLedgerFeedTests : IAsyncDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    /// <summary>Two entries a page, so following the ledger takes several reads. The feed takes a short page for the
    /// end of the ledger, so it and the ledger must agree on the size, as SalesLedgerReader does by reading the option.</summary>
    private const int PageSize = 2;

    private readonly string _checkpoints = Path.Combine(Path.GetTempPath(), $"feed-tests-{Guid.NewGuid():N}");
    private readonly LedgerInMemory _ledger = new(PageSize);
    private readonly ServiceProvider _meters = new ServiceCollection().AddMetrics().BuildServiceProvider();

    /// <summary>What <see cref="Saved"/> loads into.</summary>
    private SalesMatrix? _loaded;

    [Fact]
    public async Task Every_entry_is_counted_once_then_the_feed_follows_new_ones()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        _ledger.Append([new SaleLine(1, 10, 3), new SaleLine(2, 11, 1)]);
        _ledger.Append([new SaleLine(2, 11, 4)]);
        var feed = Feed();
        await feed.StartAsync();

        await feed.Readiness.Ready.WaitAsync(Patience);
        Assert.Equal((5, 5), (feed.Matrix.UnitsSold(1, 10), feed.Matrix.UnitsSold(2, 11)));
        Assert.Equal(3, feed.Readiness.CountedThrough);
        Assert.Equal((false, 3L), (feed.Readiness.StartedFromCheckpoint, feed.Readiness.EntriesReadAtStart));

        _ledger.Append([new SaleLine(1, 10, 7)]);
        await Until(() => feed.Readiness.CountedThrough == 4);
        Assert.Equal(12, feed.Matrix.UnitsSold(1, 10));
        await feed.StopAsync();
    }

    /// <summary>A still ledger is read less and less often, down to once an IdleLedgerPollInterval (at 10 ms a read
    /// a second would be 100 reads); an entry appended then is still counted, and the reads quicken again.</summary>
    [Fact]
    public async Task A_still_ledger_is_read_ever_less_often_and_a_new_entry_is_still_counted()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        var feed = Feed(idlePollInterval: TimeSpan.FromMilliseconds(400));
        await feed.StartAsync();
        await feed.Readiness.Ready.WaitAsync(Patience);

        await Task.Delay(TimeSpan.FromSeconds(1));
        var before = _ledger.Reads;
        await Task.Delay(TimeSpan.FromSeconds(2));
        var still = _ledger.Reads - before;
        // Two seconds at 400 ms a read is 5 reads; a question's read would add some, and none is asked here.
        Assert.InRange(still, 1, 8);

        _ledger.Append([new SaleLine(1, 10, 3)]);
        await Until(() => feed.Readiness.CountedThrough == 2);
        Assert.Equal(5, feed.Matrix.UnitsSold(1, 10));
        await feed.StopAsync();
    }

    [Fact]
    public async Task Sales_stored_before_entries_carried_their_day_are_counted_into_days_once_a_dating_entry_dates_them()
    {
        // Format 0: store 1 item 10 quantity 3, store 2 item 11 quantity 4, as a writer of the release before wrote them.
        _ledger.Append([0x01, 0x0A, 0x03, 0x02, 0x0B, 0x04]);
        var feed = Feed();
        await feed.StartAsync();
        await feed.Readiness.Ready.WaitAsync(Patience);
        Assert.Equal(7, feed.Readiness.UndatedUnits);
        Assert.Equal(3, feed.Matrix.UnitsSold(1, 10));

        var day = new DateOnly(2020, 5, 1);
        _ledger.Append(SalesLedgerEntry.EncodeDating([new SaleLine(1, 10, 3, day), new SaleLine(2, 11, 4, day.AddDays(1))]));
        _ledger.Append([new SaleLine(1, 10, 1, day.AddDays(1))]);
        await Until(() => feed.Readiness.CountedThrough == 3);

        // Dated, not sold again: all time holds each unit once, and each day its own.
        Assert.Equal(0, feed.Readiness.UndatedUnits);
        Assert.Equal(4, feed.Matrix.UnitsSold(1, 10));
        var best = new RankedSales[5];
        Assert.Equal([new RankedSales(1, 3)], best[..feed.Days.TopStoresForItem(10, day, day, best)]);
        Assert.Equal([new RankedSales(2, 4)], best[..feed.Days.TopStoresForItem(11, day, day.AddDays(1), best)]);
        Assert.Equal([new RankedSales(1, 1)], best[..feed.Days.TopStoresForItem(10, day.AddDays(1), day.AddDays(1), best)]);
        await feed.StopAsync();
    }

    [Fact]
    public async Task A_question_ends_the_pause_between_reads_and_the_read_it_wanted_counts_what_was_stored_before_it()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        // A pause far longer than the test waits: only the question's wish can end it.
        var feed = Feed(pollInterval: TimeSpan.FromHours(1));
        await feed.StartAsync();
        await feed.Readiness.Ready.WaitAsync(Patience);
        await Until(() => feed.Readiness.CaughtUpRead > 0);

        _ledger.Append([new SaleLine(1, 10, 5)]);
        var arrived = feed.Readiness.ReadsBegun;
        feed.Readiness.WantRead();
        await Until(() => feed.Readiness.CaughtUpRead > arrived);

        Assert.Equal(7, feed.Matrix.UnitsSold(1, 10));
        await feed.StopAsync();
    }

    /// <summary>A checkpoint is copied a part after each read while entries go on being counted (#55: no question
    /// waits for a whole copy); what it saves is exactly the entries up to the position it names, neither torn nor short.
    /// The matrix is large enough (16 M counters) for a copy of several parts.</summary>
    [Fact]
    public async Task A_checkpoint_taken_while_entries_are_counted_holds_exactly_the_entries_up_to_its_position()
    {
        const int maxItemId = 2_000_000;
        var feed = Feed(checkpointInterval: TimeSpan.Zero, maxItemId: maxItemId);
        await feed.StartAsync();
        await feed.Readiness.Ready.WaitAsync(Patience);
        var checkpoint = new SalesCheckpoint(feed.Options, Options.Create(new SalesShardOptions()), NullLogger<SalesCheckpoint>.Instance);
        var entries = new List<SaleLine[]>();
        var random = new Random(11);
        LedgerPosition? saved = null;
        var loaded = new SalesMatrix(maxItemId, 8, new ItemRange(1, maxItemId));
        using var patience = new CancellationTokenSource(Patience);
        while (saved is not { Seq: > 0 })
        {
            // Each entry's lines spread over the whole matrix, so some land in parts copied already and some not.
            var lines = Enumerable.Range(0, 20).Select(_ => new SaleLine(random.Next(1, 9), random.Next(1, maxItemId + 1), random.Next(1, 5))).ToArray();
            entries.Add(lines);
            _ledger.Append(lines);
            await Task.Delay(TimeSpan.FromMilliseconds(1), patience.Token);
            saved = File.Exists(checkpoint.FilePath) ? checkpoint.TryLoad(_ledger.Id, loaded, new SalesByDay(8, new ItemRange(1, maxItemId), 400))?.Position : null;
        }

        var position = saved.Value;
        var expected = new SalesMatrix(maxItemId, 8, new ItemRange(1, maxItemId));
        foreach (var lines in entries.Take((int)position.Seq))
        {
            expected.RecordSales(lines);
        }

        Assert.Equal(expected.Checksum(), loaded.Checksum());
        await feed.StopAsync();
    }

    [Fact]
    public async Task A_restart_reads_its_checkpoint_and_only_the_entries_stored_after_it()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        _ledger.Append([new SaleLine(3, 12, 1)]);
        var first = Feed();
        await first.StartAsync();
        await first.Readiness.Ready.WaitAsync(Patience);
        await first.StopAsync(); // saves a checkpoint of both entries
        _ledger.Append([new SaleLine(1, 10, 5)]);

        var second = Feed();
        await second.StartAsync();
        await second.Readiness.Ready.WaitAsync(Patience);

        Assert.Equal((true, 1L), (second.Readiness.StartedFromCheckpoint, second.Readiness.EntriesReadAtStart));
        Assert.Equal((7, 1), (second.Matrix.UnitsSold(1, 10), second.Matrix.UnitsSold(3, 12)));
        await second.StopAsync();
    }

    /// <summary>A checkpoint after the first saves the chunks changed since the first's base, not the matrix again:
    /// one base file stays, each checkpoint names it, and a restart from the last counts exactly what was stored. (The
    /// matrix holds 4,000 chunks: a base is due once more than one in 32 changed.)</summary>
    [Fact]
    public async Task Checkpoints_after_a_base_save_the_chunks_changed_since_and_a_restart_from_one_counts_exactly()
    {
        const int maxItemId = 4_000;
        var random = new Random(3);
        var expected = new SalesMatrix(maxItemId, 8, new ItemRange(1, maxItemId));
        void Append()
        {
            SaleLine[] lines = [.. Enumerable.Range(0, 5).Select(_ => new SaleLine(random.Next(1, 9), random.Next(1, maxItemId + 1), random.Next(1, 9)))];
            expected.RecordSales(lines);
            _ledger.Append(lines);
        }

        Append();
        var first = Feed(checkpointInterval: TimeSpan.Zero, maxItemId: maxItemId);
        var checkpoint = new SalesCheckpoint(first.Options, Options.Create(new SalesShardOptions()), NullLogger<SalesCheckpoint>.Instance);
        await first.StartAsync();
        await first.Readiness.Ready.WaitAsync(Patience);
        var bases = new HashSet<string>();
        for (var seq = 2; seq <= 6; seq++)
        {
            Append();
            await Until(() => Saved(checkpoint, maxItemId) is { Position.Seq: var saved } && saved >= seq);
            bases.Add(Saved(checkpoint, maxItemId)!.Value.Base!.Name);
        }

        await first.StopAsync();
        Append();
        var second = Feed(maxItemId: maxItemId);
        await second.StartAsync();
        await second.Readiness.Ready.WaitAsync(Patience);

        Assert.Single(bases);
        Assert.Equal(bases.Order(), Directory.GetFiles(checkpoint.PackedDays.Directory, "*", SearchOption.AllDirectories).Select(path => Path.GetRelativePath(checkpoint.PackedDays.Directory, path)));
        Assert.Equal((true, 1L), (second.Readiness.StartedFromCheckpoint, second.Readiness.EntriesReadAtStart));
        Assert.Equal(expected.Checksum(), second.Matrix.Checksum());
        await second.StopAsync();
    }

    /// <summary>A stop while a new base is being copied (more than one chunk in 32 changed) saves the matrix whole:
    /// the marks count from that copy's start, so a save beside the base before it would leave out, for good, what
    /// changed between the two. The matrix holds 16 M counters, a copy of eight parts; the stop comes as soon as the
    /// entry that makes a base due is counted, so it lands before the copy, during it or after it, and a restart must
    /// count exactly each time.</summary>
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public async Task A_stop_while_a_new_base_is_copied_leaves_a_checkpoint_that_counts_exactly(int seed)
    {
        const int maxItemId = 2_000_000;
        var random = new Random(seed);
        var expected = new SalesMatrix(maxItemId, 8, new ItemRange(1, maxItemId));
        void Append(int lineCount)
        {
            SaleLine[] lines = [.. Enumerable.Range(0, lineCount).Select(_ => new SaleLine(random.Next(1, 9), random.Next(1, maxItemId + 1), random.Next(1, 9)))];
            expected.RecordSales(lines);
            _ledger.Append(lines);
        }

        Append(10);
        var first = Feed(checkpointInterval: TimeSpan.Zero, maxItemId: maxItemId);
        var checkpoint = new SalesCheckpoint(first.Options, Options.Create(new SalesShardOptions()), NullLogger<SalesCheckpoint>.Instance);
        await first.StartAsync();
        await first.Readiness.Ready.WaitAsync(Patience);
        Append(10);
        await Until(() => Saved(checkpoint, maxItemId) is { Position.Seq: >= 2 });
        Append(80_000);
        await Until(() => first.Readiness.CountedThrough >= 3);
        await first.StopAsync();

        var second = Feed(maxItemId: maxItemId);
        await second.StartAsync();
        await second.Readiness.Ready.WaitAsync(Patience);

        Assert.Equal(expected.Checksum(), second.Matrix.Checksum());
        await second.StopAsync();
    }

    /// <summary>A save beside a base that is gone fails; the next takes a new base, and a restart from it counts
    /// exactly.</summary>
    [Fact]
    public async Task A_base_gone_is_taken_again_at_the_next_save()
    {
        const int maxItemId = 4_000;
        _ledger.Append([new SaleLine(1, 10, 2)]);
        var first = Feed(checkpointInterval: TimeSpan.Zero, maxItemId: maxItemId);
        var checkpoint = new SalesCheckpoint(first.Options, Options.Create(new SalesShardOptions()), NullLogger<SalesCheckpoint>.Instance);
        await first.StartAsync();
        await Until(() => Saved(checkpoint, maxItemId) is { Position.Seq: 1 });
        var gone = Saved(checkpoint, maxItemId)!.Value.Base!.Name;

        File.Delete(Path.Combine(checkpoint.PackedDays.Directory, gone));
        _ledger.Append([new SaleLine(3, 12, 1)]);
        await Until(() => Saved(checkpoint, maxItemId) is { Position.Seq: 2, Base.Name: var name } && name != gone);
        await first.StopAsync();
        var second = Feed(maxItemId: maxItemId);
        await second.StartAsync();
        await second.Readiness.Ready.WaitAsync(Patience);

        Assert.Equal((true, 0L), (second.Readiness.StartedFromCheckpoint, second.Readiness.EntriesReadAtStart));
        Assert.Equal((2, 1), (second.Matrix.UnitsSold(1, 10), second.Matrix.UnitsSold(3, 12)));
        await second.StopAsync();
    }

    /// <summary>A rebuild clears the matrix its base was taken of: the next checkpoint takes a new base, and a restart
    /// from it counts the restored ledger alone.</summary>
    [Fact]
    public async Task After_a_rebuild_the_next_checkpoint_takes_a_new_base()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        _ledger.Append([new SaleLine(3, 10, 3)]);
        var first = Feed(checkpointInterval: TimeSpan.Zero);
        var checkpoint = new SalesCheckpoint(first.Options, Options.Create(new SalesShardOptions()), NullLogger<SalesCheckpoint>.Instance);
        await first.StartAsync();
        await Until(() => Saved(checkpoint) is { Position.Seq: 2 });
        var before = Saved(checkpoint)!.Value.Base!.Name;

        _ledger.RestoreTo([[new SaleLine(2, 20, 6)]]);
        await Until(() => first.Matrix.UnitsSold(2, 20) == 6 && Saved(checkpoint) is { Position.Seq: 1 });
        await first.StopAsync();
        var second = Feed();
        await second.StartAsync();
        await second.Readiness.Ready.WaitAsync(Patience);

        Assert.NotEqual(before, Saved(checkpoint)!.Value.Base!.Name);
        Assert.Equal((true, 0L), (second.Readiness.StartedFromCheckpoint, second.Readiness.EntriesReadAtStart));
        Assert.Equal((6, 0, 0), (second.Matrix.UnitsSold(2, 20), second.Matrix.UnitsSold(1, 10), second.Matrix.UnitsSold(3, 10)));
        await second.StopAsync();
    }

    [Fact]
    public async Task A_database_restored_from_a_backup_is_noticed_and_the_matrix_rebuilt_to_equal_it()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        _ledger.Append([new SaleLine(1, 10, 3)]);
        _ledger.Append([new SaleLine(1, 10, 4)]);
        var feed = Feed();
        await feed.StartAsync();
        await feed.Readiness.Ready.WaitAsync(Patience);

        // The backup holds two entries, under seqs the matrix has counted other entries at.
        _ledger.RestoreTo([[new SaleLine(2, 20, 6)], [new SaleLine(1, 10, 1)]]);

        await Until(() => feed.Matrix.UnitsSold(2, 20) == 6);
        Assert.Equal(1, feed.Matrix.UnitsSold(1, 10));
        Assert.Equal(2, feed.Readiness.CountedThrough);
        await feed.StopAsync();
    }

    [Fact]
    public async Task A_restore_landing_between_the_check_of_the_entry_counted_last_and_the_read_after_it_is_noticed()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        _ledger.Append([new SaleLine(1, 10, 3)]);
        var feed = Feed(pollInterval: TimeSpan.FromHours(1));
        await feed.StartAsync();
        await Until(() => feed.Readiness.CountedThrough == 2 && feed.Readiness.CaughtUpRead > 0);

        // A backup from when the ledger held one entry, restored while the next read checks entry 2; then writers commit
        // seqs 2 and 3 on the restored ledger. Read apart, the check saw the old entry 2 and the read the new entry 3,
        // taken for the next one, and the matrix never equalled MySQL again (#57).
        _ledger.AfterNextCheck(() => _ledger.RestoreTo([[new SaleLine(1, 10, 2)], [new SaleLine(2, 20, 4)], [new SaleLine(2, 20, 1)]]));

        // Each poll asks for a read, as questions do: the feed's own pause is an hour.
        await Until(() =>
        {
            feed.Readiness.WantRead();
            return feed.Readiness.CountedThrough == 3 && feed.Matrix.UnitsSold(2, 20) == 5;
        });
        Assert.Equal(2, feed.Matrix.UnitsSold(1, 10));
        await feed.StopAsync();
    }

    [Fact]
    public async Task An_entry_that_cannot_be_read_is_left_out_whole_and_the_feed_goes_on()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        _ledger.Append([0xFF, 0xFF, 0xFF]);
        _ledger.Append([new SaleLine(1, 10, 3)]);
        var feed = Feed();
        await feed.StartAsync();

        await feed.Readiness.Ready.WaitAsync(Patience);
        Assert.Equal(3, feed.Readiness.CountedThrough);
        Assert.Equal(5, feed.Matrix.UnitsSold(1, 10));
        await feed.StopAsync();
    }

    [Fact]
    public async Task An_entry_seen_before_the_one_below_it_waits_for_it_and_nothing_is_skipped()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        var late = _ledger.AppendHidden([new SaleLine(1, 10, 3)]);
        _ledger.Append([new SaleLine(1, 10, 4)]);
        var feed = Feed();
        await feed.StartAsync();
        await Until(() => feed.Readiness.CountedThrough == 1);

        // Seq 3 is readable and seq 2 is not: the feed reads again instead of moving past 2.
        await Until(() => feed.Readiness.WaitingFor == 2);
        Assert.Equal((1L, 2L), (feed.Readiness.CountedThrough, feed.Matrix.UnitsSold(1, 10)));

        _ledger.Reveal(late);
        await Until(() => feed.Readiness.CountedThrough == 3);
        Assert.Equal(9, feed.Matrix.UnitsSold(1, 10));
        Assert.Null(feed.Readiness.WaitingFor);
        await feed.StopAsync();
    }

    [Fact]
    public async Task A_missing_entry_that_persists_makes_the_aggregator_not_ready_and_is_never_skipped()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        _ledger.AppendHidden([new SaleLine(1, 10, 3)]);
        _ledger.Append([new SaleLine(1, 10, 4)]);
        var feed = Feed(missingEntryPatience: TimeSpan.FromMilliseconds(100));
        await feed.StartAsync();

        await Until(() => feed.Readiness.WaitingFor == 2);
        await Task.Delay(TimeSpan.FromMilliseconds(300));
        var shard = new SalesShard(Number: 1, Count: 1, new ItemRange(1, feed.Matrix.MaxItemId), feed.Matrix.MaxItemId, feed.Matrix.MaxStores);
        var health = await new MatrixReadyCheck(feed.Readiness, shard, feed.Options).CheckHealthAsync(new());

        Assert.Equal(Microsoft.Extensions.Diagnostics.HealthChecks.HealthStatus.Unhealthy, health.Status);
        Assert.Contains("ledger entry 2", health.Description);
        Assert.Equal((1L, 2L), (feed.Readiness.CountedThrough, feed.Matrix.UnitsSold(1, 10)));
        await feed.StopAsync();
    }

    [Fact]
    public async Task A_read_that_finds_an_entry_missing_below_a_readable_one_answers_no_question()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        var late = _ledger.AppendHidden([new SaleLine(1, 10, 3)]);
        _ledger.Append([new SaleLine(1, 10, 4)]);
        var feed = Feed();
        await feed.StartAsync();
        await Until(() => feed.Readiness.WaitingFor == 2);

        // A question arrives; several reads begin after it, each finding seq 3 readable and seq 2 not. Counted through
        // 1, the matrix lacks a purchase stored before the question: none of those reads may answer it (#72).
        var asked = feed.Readiness.ReadsBegun;
        await Until(() => feed.Readiness.ReadsBegun > asked + 3);
        Assert.True(feed.Readiness.CaughtUpRead <= asked, $"read {feed.Readiness.CaughtUpRead} answered a question asked at read {asked}");

        _ledger.Reveal(late);
        await Until(() => feed.Readiness.CaughtUpRead > asked);
        Assert.Equal((3L, 9L), (feed.Readiness.CountedThrough, feed.Matrix.UnitsSold(1, 10)));
        await feed.StopAsync();
    }

    [Fact]
    public async Task Seqs_missing_from_before_the_ledger_was_gapless_are_passed_over()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        var rolledBack = _ledger.Append([new SaleLine(1, 10, 100)]);
        _ledger.Append([new SaleLine(1, 10, 3)]);
        _ledger.Drop(rolledBack);
        _ledger.GaplessAfter = 3;
        _ledger.Append([new SaleLine(1, 10, 4)]);
        var feed = Feed();
        await feed.StartAsync();

        await feed.Readiness.Ready.WaitAsync(Patience);
        Assert.Equal((4L, 9L), (feed.Readiness.CountedThrough, feed.Matrix.UnitsSold(1, 10)));
        await feed.StopAsync();
    }

    [Fact]
    public async Task While_a_restored_database_is_counted_again_the_aggregator_is_not_ready()
    {
        _ledger.Append([new SaleLine(1, 10, 2)]);
        _ledger.Append([new SaleLine(1, 10, 3)]);
        var feed = Feed();
        await feed.StartAsync();
        await feed.Readiness.Ready.WaitAsync(Patience);

        _ledger.HoldReadsFromTheStart();
        _ledger.RestoreTo([[new SaleLine(1, 10, 1)]]);
        await Until(() => feed.Matrix.UnitsSold(1, 10) == 0);

        Assert.False(feed.Readiness.Ready.IsCompleted);
        _ledger.ReleaseReads();
        await feed.Readiness.Ready.WaitAsync(Patience);
        Assert.Equal(1, feed.Matrix.UnitsSold(1, 10));
        await feed.StopAsync();
    }

    private RunningFeed Feed(TimeSpan? missingEntryPatience = null, TimeSpan? pollInterval = null, TimeSpan? checkpointInterval = null, int maxItemId = 50,
        TimeSpan? idlePollInterval = null)
    {
        var options = Options.Create(new AggregatorOptions
        {
            CheckpointDirectory = _checkpoints,
            CheckpointInterval = checkpointInterval ?? new AggregatorOptions().CheckpointInterval,
            LedgerPageSize = PageSize,
            LedgerPollInterval = pollInterval ?? TimeSpan.FromMilliseconds(10),
            IdleLedgerPollInterval = idlePollInterval ?? pollInterval ?? TimeSpan.FromMilliseconds(10),
            MissingEntryPatience = missingEntryPatience ?? new AggregatorOptions().MissingEntryPatience,
        });
        var matrix = new SalesMatrix(maxItemId, 8, new ItemRange(1, maxItemId));
        var readiness = new MatrixReadiness();
        var days = new SalesByDay(8, new ItemRange(1, maxItemId), options.Value.DaysKept);
        var feed = new SalesLedgerFeed(matrix, days, _ledger, new SalesCheckpoint(options, Options.Create(new SalesShardOptions()), NullLogger<SalesCheckpoint>.Instance), readiness,
            new SalesMetrics(_meters.GetRequiredService<IMeterFactory>(), readiness), new CountingPace(options, TimeProvider.System), options, TimeProvider.System, NullLogger<SalesLedgerFeed>.Instance);
        return new RunningFeed(feed, matrix, readiness, options, days);
    }

    /// <summary>The checkpoint on disk as a start would load it, or null while there is none (or it is being replaced).</summary>
    private LoadedCheckpoint? Saved(SalesCheckpoint checkpoint, int maxItemId = 50)
    {
        // One matrix a size, loaded into again: a test polls this.
        if (_loaded?.MaxItemId != maxItemId)
        {
            _loaded = new SalesMatrix(maxItemId, 8, new ItemRange(1, maxItemId));
        }

        return File.Exists(checkpoint.FilePath) ? checkpoint.TryLoad(_ledger.Id, _loaded, new SalesByDay(8, new ItemRange(1, maxItemId), 400)) : null;
    }

    private static async Task Until(Func<bool> condition)
    {
        using var patience = new CancellationTokenSource(Patience);
        while (!condition())
        {
            await Task.Delay(TimeSpan.FromMilliseconds(10), patience.Token);
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _meters.DisposeAsync();
        if (Directory.Exists(_checkpoints))
        {
            Directory.Delete(_checkpoints, recursive: true);
        }
    }

    private sealed record RunningFeed(SalesLedgerFeed Feed, SalesMatrix Matrix, MatrixReadiness Readiness, IOptions<AggregatorOptions> Options, SalesByDay Days)
    {
        public Task StartAsync() => Feed.StartAsync(CancellationToken.None);

        public Task StopAsync() => Feed.StopAsync(CancellationToken.None);
    }
}
