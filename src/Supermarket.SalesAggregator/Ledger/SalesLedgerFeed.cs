using System.Diagnostics;
using System.Runtime.InteropServices;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;
using Supermarket.SalesAggregator.Checkpoints;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Ledger;

/// <summary>
/// Keeps the matrix equal to what MySQL holds: starts from the last checkpoint (or from nothing), applies every
/// sales ledger entry after it once, then follows the ledger as the writer appends to it, and saves a checkpoint now
/// and then (<see cref="CheckpointCopy"/>). Each line is counted twice: into the all-time matrix and into its day
/// (<see cref="SalesByDay"/>), on this one thread.
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

    private readonly AggregatorOptions _options = options.Value;
    private readonly CheckpointCopy _checkpoints = new(matrix, checkpoint, options.Value.CheckpointInterval, logger);
    private readonly List<SaleLine> _lines = new(1024);
    private LedgerPosition _position = LedgerPosition.Start;
    private LedgerIdentity _identity;
    private long _started;
    private long _entriesRead;
    private bool _fromCheckpoint;
    private bool _reportedMissing;

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

            if (caughtUp && _checkpoints.Copying)
            {
                _checkpoints.CopyNextPart(_identity.Id, _position, SavedDays);
            }
            else if (caughtUp && readiness.WaitingFor is null && _checkpoints.Due)
            {
                _checkpoints.Begin(_identity.Id, _position, SavedDays);
            }

            // While a checkpoint is copied, read again at once: its next part follows the next read.
            if (caughtUp && !_checkpoints.Copying)
            {
                await Task.WhenAny(readiness.ReadWanted, DelayAsync(pollWait, stoppingToken));
            }
        }
    }

    /// <summary>Saves a last checkpoint once the loop has stopped applying entries: not when the host's shutdown time is
    /// spent (the token), which a service stopped before may have used up, but after the page it was applying: a copy
    /// beside it would hold part of a page beyond its position. A loop that does not end within
    /// <see cref="LoopStopWait"/> leaves the last checkpoint saved: a restart reads on from there.</summary>
    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        if (ExecuteTask is { } loop && await Task.WhenAny(loop, Task.Delay(LoopStopWait, CancellationToken.None)) != loop)
        {
            logger.LogWarning("The sales ledger feed did not stop within {Seconds} s; no checkpoint is taken at the stop, the last one saved stays",
                LoopStopWait.TotalSeconds);
            await _checkpoints.Saving;
            return;
        }

        if (readiness.Ready.IsCompleted)
        {
            await _checkpoints.SaveAtStopAsync(_identity.Id, _position, SavedDays);
        }

        await _checkpoints.Saving;
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
            (_position, _fromCheckpoint) = (position, true);
            logger.LogInformation("Loaded the checkpoint {Path} (ledger entries up to {Seq}; {Matrix}) in {Elapsed} ms", checkpoint.FilePath, position.Seq,
                loaded.Base is { } matrixBase ? $"a base and {matrixBase.Changed.Count} chunks changed since" : "the matrix whole", watch.ElapsedMilliseconds);
        }

        _checkpoints.Started(_fromCheckpoint ? _position : null);
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
            _checkpoints.Counted(CollectionsMarshal.AsSpan(_lines));
            if (SalesLedgerEntry.IsUndated(entry.Sales))
            {
                readiness.UndatedUnits += UnitsHeld(_lines);
            }

            days.RecordSales(CollectionsMarshal.AsSpan(_lines));

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
        matrix.Clear();
        _checkpoints.Cleared();
        days.Clear();
        readiness.UndatedUnits = 0;
        (_position, _fromCheckpoint, _entriesRead, _started) = (LedgerPosition.Start, false, 0, Stopwatch.GetTimestamp());
    }

    /// <summary>The days as of the position counted last, taken on the recording thread: the snapshot copies the lines
    /// not yet packed and shares the packed days, which never change, so the file is written in the background.</summary>
    private SavedSales SavedDays() => new(days.TakeSnapshot(), readiness.UndatedUnits);

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
