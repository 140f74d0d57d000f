using System.Diagnostics;
using System.Runtime.InteropServices;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Ledger;
using Supermarket.Database.Ledger;
using Supermarket.SalesAggregator.Questions;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Ledger;

/// <summary>
/// Keeps the matrix equal to what MySQL holds: starts from the last checkpoint (or from nothing), applies every
/// sales ledger entry after it once, then follows the ledger as the writer appends to it, and saves a checkpoint now
/// and then. Each line is counted twice: into the all-time matrix and into its day (<see cref="SalesByDay"/>). The only
/// thread that records into either, so a checkpoint copy is never torn.
/// </summary>
/// <remarks>
/// Why this is exact: an entry is written in the same transaction as the purchases it holds and holds only those that
/// transaction newly stored, so each stored purchase is in exactly one entry; entries commit in seq order (the writer's
/// SalesLedgerAppend), so reading on from the last seq counted (<see cref="LedgerPosition"/>) applies each entry once
/// and skips none, however long a transaction stalls before its commit; and the checkpoint saves the matrix together
/// with that position. No crash, retry, redelivery or restart between those steps can count a purchase twice or not at
/// all, and no clock decides anything.
/// </remarks>
public sealed class SalesLedgerFeed(
    SalesMatrix matrix, SalesByDay days, ISalesLedger ledger, SalesCheckpoint checkpoint, MatrixReadiness readiness, SalesMetrics metrics,
    CountingPace pace, IOptions<AggregatorOptions> options, TimeProvider clock, ILogger<SalesLedgerFeed> logger) : BackgroundService
{
    /// <summary>How long a stop waits for the loop to end: a cancelled ledger read ends in milliseconds, the page being
    /// applied in well under a second.</summary>
    private static readonly TimeSpan LoopStopWait = TimeSpan.FromSeconds(10);

    /// <summary>A checkpoint saves the chunks changed since its base while they are at most one in this many.</summary>
    private const int ChunksAChangeAtMost = 32;

    private readonly AggregatorOptions _options = options.Value;
    private readonly List<SaleLine> _lines = new(1024);
    private LedgerPosition _position = LedgerPosition.Start;
    private LedgerPosition? _checkpointed;
    private LedgerIdentity _identity;
    private long _started;
    private long _entriesRead;
    private long _lastCheckpoint;
    private bool _fromCheckpoint;
    private bool _reportedMissing;
    /// <summary>The save in progress, or the last; null if it failed.</summary>
    private Task<Saved?> _saving = Task.FromResult<Saved?>(null);

    /// <summary>The chunks of the matrix changed since the base copy <see cref="_base"/> names was taken.</summary>
    private readonly MatrixChanges _changed = new(matrix);

    /// <summary>The base file the checkpoints name, the chunks changed since beside it; null while none is saved (or
    /// one is being saved), so the next save writes a whole copy.</summary>
    private string? _base;

    /// <summary>Moves on each time the marks are cleared (a new base begun, a rebuild): a save begun before names a base
    /// the marks no longer count from, or of a matrix a rebuild cleared.</summary>
    private int _marksSince;

    /// <summary>A checkpoint's copy while it is taken, a part between two reads of the ledger; null between checkpoints.</summary>
    private SalesMatrix? _copy;

    /// <summary>How many of the matrix's counters <see cref="_copy"/> holds so far.</summary>
    private long _copied;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        _started = Stopwatch.GetTimestamp();
        await StartFromCheckpointAsync(stoppingToken);
        var pollWait = _options.LedgerPollInterval;
        while (!stoppingToken.IsCancellationRequested)
        {
            bool caughtUp;
            var readNumber = readiness.BeginRead();
            try
            {
                // The entry counted last and what follows it, as of one moment: a restore cannot fall between them.
                var read = await ledger.ReadFromAsync(_position.Seq, stoppingToken);
                if (_position.Seq > 0 && read.StoredAt != _position.StoredAt)
                {
                    await RebuildAsync(read.StoredAt, stoppingToken);
                    read = await ledger.ReadFromAsync(_position.Seq, stoppingToken);
                }

                var entries = read.After;
                var applied = Apply(entries);
                _entriesRead += applied;
                caughtUp = applied < entries.Count || entries.Count < _options.LedgerPageSize;
                pollWait = entries.Count > 0 ? _options.LedgerPollInterval : Min(pollWait * 2, _options.IdleLedgerPollInterval);
            }
            catch (Exception exception) when (!stoppingToken.IsCancellationRequested)
            {
                // The database restarting, or the writer not having created the ledger yet: try again shortly.
                logger.LogWarning("Reading the sales ledger failed; trying again in 1 s: {Error}", exception.Message);
                await DelayAsync(TimeSpan.FromSeconds(1), stoppingToken);
                continue;
            }

            readiness.CountedUpTo(_position.Seq);
            if (caughtUp && !readiness.Ready.IsCompleted)
            {
                readiness.Complete(_fromCheckpoint, _entriesRead);
                logger.LogInformation("The sales matrix is ready: {Entries} ledger entries applied after the checkpoint in {Elapsed} ms",
                    _entriesRead, (long)Stopwatch.GetElapsedTime(_started).TotalMilliseconds);
            }

            if (caughtUp)
            {
                // Before a checkpoint's copy: the questions waiting for this read are answered while it copies.
                readiness.CaughtUp(readNumber);
            }

            if (caughtUp && _copy is not null)
            {
                CopyNextPart();
            }
            else if (caughtUp && readiness.WaitingFor is null && Stopwatch.GetElapsedTime(_lastCheckpoint) >= _options.CheckpointInterval)
            {
                BeginCheckpoint();
            }

            // While a checkpoint is copied, read again at once: its next part follows the next read.
            if (caughtUp && _copy is null)
            {
                await Task.WhenAny(readiness.ReadWanted, DelayAsync(pollWait, stoppingToken));
            }
        }
    }

    /// <summary>Saves a last checkpoint once the loop has stopped applying entries: not when the host's shutdown time is
    /// spent (the token), which a service stopped before this one may have used up, but when the loop itself has ended,
    /// after the page it was applying (#72: a copy taken beside it held part of a page beyond its position, and the
    /// restart counted that part twice, for good). A loop that does not end within <see cref="LoopStopWait"/> (a ledger
    /// read that ignores its cancellation) leaves the last checkpoint saved: a restart reads on from there.</summary>
    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        if (ExecuteTask is { } loop && await Task.WhenAny(loop, Task.Delay(LoopStopWait, CancellationToken.None)) != loop)
        {
            logger.LogWarning("The sales ledger feed did not stop within {Seconds} s; no checkpoint is taken at the stop, the last one saved stays",
                LoopStopWait.TotalSeconds);
            await _saving;
            return;
        }

        // Nothing records any more: what changed since the base, or the whole matrix, is copied at once.
        _copy = null;
        if (readiness.Ready.IsCompleted && NothingSavingAndSomethingNew())
        {
            if (ChangedSinceBase() is { } changed)
            {
                SaveInBackground(changed, SavedDays(), _position);
            }
            else
            {
                var copy = NewCopy();
                ClearMarks();
                matrix.CopyTo(copy);
                SaveInBackground(new SavedMatrix.Whole(copy), SavedDays(), _position);
            }
        }

        await _saving;
    }

    private async Task StartFromCheckpointAsync(CancellationToken stoppingToken)
    {
        while (true)
        {
            try
            {
                _identity = await ledger.IdentityAsync(stoppingToken);
                break;
            }
            catch (Exception exception) when (!stoppingToken.IsCancellationRequested)
            {
                logger.LogWarning("The sales ledger cannot be read yet (is the Purchases writer's database up?); trying again in 1 s: {Error}", exception.Message);
                await DelayAsync(TimeSpan.FromSeconds(1), stoppingToken);
            }
        }

        var watch = Stopwatch.StartNew();
        if (checkpoint.TryLoad(_identity.Id, matrix, days) is { } loaded)
        {
            var position = loaded.Position;
            readiness.UndatedUnits = loaded.UndatedUnits;
            // Its base stays another process's file (a replica's, or this one's before a restart, which its writer deletes
            // once it saves another base), so the first save here writes a base of this process's own.
            (_position, _checkpointed, _fromCheckpoint) = (position, position, true);
            logger.LogInformation("Loaded the checkpoint {Path} (ledger entries up to {Seq}; {Matrix}) in {Elapsed} ms", checkpoint.FilePath, position.Seq,
                loaded.Base is { } matrixBase ? $"a base and {matrixBase.Changed.Count} chunks changed since" : "the matrix whole", watch.ElapsedMilliseconds);
        }

        _lastCheckpoint = Stopwatch.GetTimestamp();
    }

    /// <summary>Counts the entries that follow on from the position, in order, and stops at the first that does not:
    /// the entry below it is not readable yet (its transaction may still commit), and moving past it would lose it for
    /// good. The next read starts from the same position.</summary>
    /// <returns>How many of <paramref name="entries"/> were counted.</returns>
    private int Apply(IReadOnlyList<LedgerEntry> entries)
    {
        var now = clock.GetUtcNow();
        var applied = 0;
        foreach (var entry in entries)
        {
            if (MissingBelow(entry) is { } missing)
            {
                if (readiness.Missing(missing))
                {
                    metrics.MissingEntry();
                    logger.LogDebug("Sales ledger entry {Seq} is readable but {Missing} is not yet; reading again", entry.Seq, missing);
                }
                else if (readiness.WaitingTime >= _options.MissingEntryPatience && !_reportedMissing)
                {
                    _reportedMissing = true;
                    logger.LogWarning("Sales ledger entry {Missing} has been missing for {Seconds:F0} s while entry {Seq} is readable; the matrix waits for it and is not ready",
                        missing, readiness.WaitingTime.TotalSeconds, entry.Seq);
                }

                return applied;
            }

            _lines.Clear();
            if (SalesLedgerEntry.IsDating(entry.Sales))
            {
                DateEarlierSales(entry);
                _position = LedgerPosition.Of(entry);
                applied++;
                continue;
            }

            try
            {
                SalesLedgerEntry.Decode(entry.Sales, _lines);
            }
            catch (Exception exception) when (exception is FormatException or OverflowException)
            {
                // Left out whole: counting the lines read before the damage would be a count no purchase adds up to.
                logger.LogError("Sales ledger entry {Seq} cannot be read and is left out whole ({Lines} lines read before the damage): {Error}",
                    entry.Seq, _lines.Count, exception.Message);
                metrics.LeftOut(_lines.Count);
                _lines.Clear();
            }

            var outside = matrix.RecordSales(CollectionsMarshal.AsSpan(_lines));
            _changed.Mark(CollectionsMarshal.AsSpan(_lines));
            if (SalesLedgerEntry.IsUndated(entry.Sales))
            {
                readiness.UndatedUnits += UnitsHeld(_lines);
            }

            days.RecordSales(CollectionsMarshal.AsSpan(_lines));
            if (_copy is not null)
            {
                matrix.RecordSalesCopied(_copy, CollectionsMarshal.AsSpan(_lines), _copied);
            }

            if (outside > 0)
            {
                // The catalog the matrix was sized from is narrower than what was stored: reported, never a crash loop.
                logger.LogError("Sales ledger entry {Seq} holds {Lines} lines outside the catalog ({Items} items, {Stores} stores); they are not counted",
                    entry.Seq, outside, matrix.MaxItemId, matrix.MaxStores);
                metrics.LeftOut(outside);
            }

            metrics.Applied(entry.Purchases, now - new DateTimeOffset(DateTime.SpecifyKind(entry.StoredAt, DateTimeKind.Utc)));
            pace.Counted(entry.Purchases, entry.StoredAt);
            _position = LedgerPosition.Of(entry);
            applied++;
        }

        if (readiness.WaitingFor is not null)
        {
            readiness.NothingMissing();
            _reportedMissing = false;
        }

        return applied;
    }

    /// <summary>Counts into their days the sales a dating entry dates (they are in all time already), and takes them off
    /// the units counted without a day: once the migration's dating entries are counted, none are left, and the ranges
    /// are answered (docs/operations.md, "Dating old sales").</summary>
    private void DateEarlierSales(LedgerEntry entry)
    {
        try
        {
            SalesLedgerEntry.DecodeDays(entry.Sales, _lines);
        }
        catch (Exception exception) when (exception is FormatException or OverflowException)
        {
            // Left out whole; the units it dates stay undated, so the ranges stay refused rather than short.
            logger.LogError("Sales ledger entry {Seq}, which dates earlier sales, cannot be read and is left out whole: {Error}", entry.Seq, exception.Message);
            _lines.Clear();
            return;
        }

        days.RecordSales(CollectionsMarshal.AsSpan(_lines));
        readiness.UndatedUnits -= UnitsHeld(_lines);
    }

    /// <summary>The units of the lines this shard counts.</summary>
    private long UnitsHeld(List<SaleLine> lines)
    {
        var units = 0L;
        foreach (var line in lines)
        {
            if (matrix.Items.Contains(line.ItemId) && (uint)(line.StoreId - 1) < (uint)matrix.MaxStores && line.Quantity > 0)
            {
                units += line.Quantity;
            }
        }

        return units;
    }

    /// <summary>The lowest seq between the position and <paramref name="entry"/> that the ledger should hold; null when
    /// the entry follows on. Seqs the ledger took before it was gapless may be missing for good.</summary>
    private long? MissingBelow(LedgerEntry entry)
    {
        var expected = _position.Seq + 1;
        var seq = (long)entry.Seq;
        if (seq == expected || seq - 1 <= _identity.GaplessAfter)
        {
            return null;
        }

        return Math.Max(expected, _identity.GaplessAfter + 1);
    }

    /// <summary>
    /// The ledger no longer holds, at the highest seq counted, the entry that was counted there: the database was
    /// restored from a backup or replaced (a restore brings its own <c>ledger_identity</c> back, and its seqs start again
    /// below ours, for other entries). The matrix then holds counts MySQL no longer has, and would skip the new entries
    /// that reuse those seqs; it is rebuilt from the whole ledger, and the next checkpoint replaces the stale one.
    /// </summary>
    private async Task RebuildAsync(DateTime? found, CancellationToken stoppingToken)
    {
        logger.LogWarning("The sales ledger's entry {Seq} was stored at {Counted:O} when counted and is now {Found}: the database was restored or replaced. Rebuilding the sales matrix from the whole ledger",
            _position.Seq, _position.StoredAt, found is { } storedAt ? $"stored at {storedAt:O}" : "missing");
        _identity = await ledger.IdentityAsync(stoppingToken);
        // Not ready before the matrix is cleared: a question ranked across the clear sees the rebuild begin and waits.
        readiness.Rebuilding();
        (_copy, _base) = (null, null);
        matrix.Clear();
        ClearMarks();
        days.Clear();
        readiness.UndatedUnits = 0;
        (_position, _checkpointed, _fromCheckpoint, _entriesRead, _started) = (LedgerPosition.Start, null, false, 0, Stopwatch.GetTimestamp());
    }

    /// <summary>Begins a checkpoint. While few chunks changed since the base, those are copied at once and saved
    /// beside the base's name (a copy of a few MB). Otherwise the matrix is copied a part after each read of the ledger
    /// (<see cref="CopyNextPart"/>), the sales recorded meanwhile reaching the parts copied already, and the whole copy
    /// is saved in the background as the new base, so counting and the questions go on throughout. A whole copy is let
    /// go and collected once saved: a shard's matrix takes its memory twice only while a base is taken, and the
    /// replicas of a large chain's shards would otherwise each hold a second matrix for good.</summary>
    private void BeginCheckpoint()
    {
        _lastCheckpoint = Stopwatch.GetTimestamp();
        if (!NothingSavingAndSomethingNew())
        {
            return;
        }

        if (ChangedSinceBase() is { } changed)
        {
            SaveInBackground(changed, SavedDays(), _position);
            return;
        }

        // The marks count from this copy on; no checkpoint names a base until this one is saved.
        (_copy, _copied, _base) = (NewCopy(), 0, null);
        ClearMarks();
        CopyNextPart();
    }

    /// <summary>From now on the marks count against a base not yet saved: a save begun before (beside the base before,
    /// or of a matrix a rebuild cleared) is not saved beside again.</summary>
    private void ClearMarks()
    {
        _changed.Clear();
        _marksSince++;
    }

    /// <summary>The chunks changed since the base, while they are at most one in <see cref="ChunksAChangeAtMost"/>
    /// (their copy, on this thread, holds up the next read: 12 MB of a 390 MiB matrix, as long as a part of a whole
    /// copy); null when a base is due.</summary>
    private SavedMatrix.Changed? ChangedSinceBase() =>
        _base is { } name && _changed.Count <= _changed.Chunks / ChunksAChangeAtMost
            ? new SavedMatrix.Changed(matrix, name, _changed.Take())
            : null;

    private bool NothingSavingAndSomethingNew()
    {
        if (!_saving.IsCompleted)
        {
            return false;
        }

        if (_saving.Result is { } saved)
        {
            _checkpointed = saved.Position;
            if (saved.MarksSince == _marksSince)
            {
                _base = saved.Base;
            }
        }
        else
        {
            // A save that failed may have failed for its base (gone): the next takes a new one.
            _base = null;
        }

        return _position != _checkpointed;
    }

    private SalesMatrix NewCopy() => new(matrix.MaxItemId, matrix.MaxStores, matrix.Items);

    /// <summary>Copies the next part; once the last is copied, the copy equals the matrix as of the position counted
    /// last, and is saved.</summary>
    private void CopyNextPart()
    {
        var count = (int)Math.Min(SalesMatrix.CountersPerCopyPart, matrix.Counters - _copied);
        matrix.CopyCountersTo(_copy!, _copied, count);
        _copied += count;
        if (_copied == matrix.Counters)
        {
            SaveInBackground(new SavedMatrix.Whole(_copy!), SavedDays(), _position);
            _copy = null;
        }
    }

    /// <summary>The days as of the position counted last, taken on the recording thread: the snapshot copies the lines
    /// not yet packed and shares the packed days, which never change, so the file is written in the background.</summary>
    private SavedSales SavedDays() => new(days.TakeSnapshot(), readiness.UndatedUnits);

    private void SaveInBackground(SavedMatrix saving, SavedSales byDay, LedgerPosition position)
    {
        SavedMatrix? matrixSaved = saving;
        var (ledgerId, marksSince) = (_identity.Id, _marksSince);
        _saving = Task.Run<Saved?>(() =>
        {
            var watch = Stopwatch.StartNew();
            var whole = matrixSaved is SavedMatrix.Whole;
            try
            {
                var saved = checkpoint.Save(ledgerId, matrixSaved!, byDay, position);
                logger.LogInformation("Saved a checkpoint of the sales matrix (ledger entries up to {Seq}; {Matrix}) in {Elapsed} ms", position.Seq,
                    whole ? "a whole copy" : $"{((SavedMatrix.Changed)matrixSaved!).Delta.Count} chunks changed since its base", watch.ElapsedMilliseconds);
                return new Saved(position, saved, marksSince);
            }
            catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
            {
                logger.LogWarning(exception, "Saving a checkpoint to {Path} failed; the next one tries again", checkpoint.FilePath);
                return null;
            }
            finally
            {
                // A whole copy let go is a large object the collector keeps until memory runs short (docs/performance.md,
                // "Levers in the code"): collected now, blocking, as the services run without concurrent collections.
                matrixSaved = null;
                if (whole)
                {
                    GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: false);
                }
            }
        });
    }

    /// <summary>A save done: the position it saved, the base file it named, and the marks it was begun beside.</summary>
    private sealed record Saved(LedgerPosition Position, string Base, int MarksSince);

    private static TimeSpan Min(TimeSpan a, TimeSpan b) => a < b ? a : b;

    private static async Task DelayAsync(TimeSpan delay, CancellationToken stoppingToken)
    {
        try
        {
            await Task.Delay(delay, stoppingToken);
        }
        catch (OperationCanceledException)
        {
        }
    }
}
