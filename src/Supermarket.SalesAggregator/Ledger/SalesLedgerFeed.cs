using System.Diagnostics;
using System.Runtime.InteropServices;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;
using Supermarket.SalesAggregator.Checkpoints;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Ledger;

/// <summary>The one thread that records: each line into all time and into its day.</summary>
/// <remarks>Exact: each stored purchase is in one entry, written in its transaction; entries commit in seq order under
/// the head's lock, so reading on from the last seq counted applies each once and skips none; the checkpoint saves the
/// matrix with that position (docs/architecture.md, "Guarantees").</remarks>
public sealed class SalesLedgerFeed(
    SalesMatrix matrix, SalesByDay days, ISalesLedger ledger, SalesCheckpoint checkpoint, MatrixReadiness readiness, SalesMetrics metrics,
    CountingPace pace, IOptions<AggregatorOptions> options, TimeProvider clock, ILogger<SalesLedgerFeed> logger) : BackgroundService
{
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
                // The entry counted last and what follows, as of one moment: its stored_at changed is a restore.
                var read = await ledger.ReadFromAsync(_position.Seq, stoppingToken);
                if (_position.Seq > 0 && read.StoredAt != _position.StoredAt)
                {
                    await RebuildAsync(read.StoredAt, stoppingToken);
                    read = await ledger.ReadFromAsync(_position.Seq, stoppingToken);
                }

                var entries = read.After;
                var applied = Apply(entries);
                _entriesRead += applied;
                // An entry missing below a readable one ends the page too: nothing more can be counted until it commits.
                caughtUp = applied < entries.Count || entries.Count < _options.LedgerPageSize;
                pollWait = entries.Count > 0 ? _options.LedgerPollInterval : Min(pollWait * 2, _options.IdleLedgerPollInterval);
            }
            catch (Exception exception) when (!stoppingToken.IsCancellationRequested)
            {
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
            // Not while an entry is missing: the wait for it is short, and a restart would only wait for it again.
            else if (caughtUp && readiness.WaitingFor is null && _checkpoints.Due)
            {
                _checkpoints.Begin(_identity.Id, _position, SavedDays);
            }

            if (caughtUp && !_checkpoints.Copying)
            {
                await Task.WhenAny(readiness.ReadWanted, DelayAsync(pollWait, stoppingToken));
            }
        }
    }

    /// <summary>The last checkpoint once the loop has ended, not on the host's token (a service stopped before may have
    /// spent it): a copy beside the page being applied would hold part of it beyond its position.</summary>
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
            (_position, _fromCheckpoint) = (position, true);
            logger.LogInformation("Loaded the checkpoint {Path} (ledger entries up to {Seq}; {Matrix}) in {Elapsed} ms", checkpoint.FilePath, position.Seq,
                loaded.Base is { } matrixBase ? $"a base and {matrixBase.Changed.Count} chunks changed since" : "the matrix whole", watch.ElapsedMilliseconds);
        }

        _checkpoints.Started(_fromCheckpoint ? _position : null);
    }

    /// <summary>Stops at the first entry that does not follow on: the one below is not readable yet (its transaction
    /// may still commit), and moving past it would lose it for good.</summary>
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
                // Left out whole: the lines read before the damage would be a count no purchase adds up to.
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

    /// <summary>Into their days only: all time holds them already (docs/operations.md, "Dating old sales").</summary>
    private void DateEarlierSales(LedgerEntry entry)
    {
        try
        {
            SalesLedgerEntry.DecodeDays(entry.Sales, _lines);
        }
        catch (Exception exception) when (exception is FormatException or OverflowException)
        {
            // The units it dates stay undated, so the ranges stay refused rather than short.
            logger.LogError("Sales ledger entry {Seq}, which dates earlier sales, cannot be read and is left out whole: {Error}", entry.Seq, exception.Message);
            _lines.Clear();
            return;
        }

        days.RecordSales(CollectionsMarshal.AsSpan(_lines));
        readiness.UndatedUnits -= UnitsHeld(_lines);
    }

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

    // Seqs the ledger took before it was gapless may be missing for good.
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

    /// <summary>The database was restored or replaced: the matrix holds counts MySQL no longer has, and would skip the
    /// new entries that reuse those seqs.</summary>
    private async Task RebuildAsync(DateTime? found, CancellationToken stoppingToken)
    {
        logger.LogWarning("The sales ledger's entry {Seq} was stored at {Counted:O} when counted and is now {Found}: the database was restored or replaced. Rebuilding the sales matrix from the whole ledger",
            _position.Seq, _position.StoredAt, found is { } storedAt ? $"stored at {storedAt:O}" : "missing");
        _identity = await ledger.IdentityAsync(stoppingToken);
        // Not ready before the matrix is cleared: a question ranked across the clear sees the rebuild begin.
        readiness.Rebuilding();
        matrix.Clear();
        _checkpoints.Cleared();
        days.Clear();
        readiness.UndatedUnits = 0;
        (_position, _fromCheckpoint, _entriesRead, _started) = (LedgerPosition.Start, false, 0, Stopwatch.GetTimestamp());
    }

    // On the recording thread: it copies the lines not yet packed and shares the packed days, which never change.
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
