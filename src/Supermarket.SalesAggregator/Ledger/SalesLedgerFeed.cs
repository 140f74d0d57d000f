using System.Diagnostics;
using System.Runtime.InteropServices;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Ledger;
using Supermarket.SalesCounting;
using Supermarket.SalesAggregator.Questions;

namespace Supermarket.SalesAggregator.Ledger;

/// <summary>
/// Keeps the matrix equal to what MySQL holds: starts from the last checkpoint (or from nothing), applies every
/// sales ledger entry after it once, then follows the ledger as the writer appends to it, and saves a checkpoint now
/// and then. The only thread that records into the matrix, so a checkpoint copy is never torn.
/// </summary>
/// <remarks>
/// Why this is exact: an entry is written in the same transaction as the purchases it holds and holds only those that
/// transaction newly stored, so each stored purchase is in exactly one entry; <see cref="AppliedEntries"/> applies each
/// entry once; and the checkpoint saves the matrix together with the entries it holds. No crash, retry, redelivery or
/// restart between those steps can count a purchase twice or not at all.
/// </remarks>
public sealed class SalesLedgerFeed(
    SalesMatrix matrix, SalesLedgerReader ledger, SalesCheckpoint checkpoint, MatrixReadiness readiness, SalesMetrics metrics,
    IOptions<AggregatorOptions> options, TimeProvider clock, ILogger<SalesLedgerFeed> logger) : BackgroundService
{
    private readonly AggregatorOptions _options = options.Value;
    private readonly List<SaleLine> _lines = new(1024);
    private AppliedEntries _applied = new();
    private Guid _ledgerId;
    private long _checkpointedMax = -1;
    private int _checkpointedGaps = -1;
    private long _lastCheckpoint;
    private bool _fromCheckpoint;
    private SalesMatrix? _copy;
    private Task _saving = Task.CompletedTask;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var started = Stopwatch.GetTimestamp();
        await StartFromCheckpointAsync(stoppingToken);
        long entries = 0;
        while (!stoppingToken.IsCancellationRequested)
        {
            bool caughtUp;
            try
            {
                var read = await ledger.ReadAfterAsync(_applied, stoppingToken);
                entries += Apply(read);
                caughtUp = read.Count < _options.LedgerPageSize;
            }
            catch (Exception exception) when (!stoppingToken.IsCancellationRequested)
            {
                // The database restarting, or the writer not having created the ledger yet: try again shortly.
                logger.LogWarning("Reading the sales ledger failed; trying again in 1 s: {Error}", exception.Message);
                await Delay(TimeSpan.FromSeconds(1), stoppingToken);
                continue;
            }

            GiveUpOldGaps();
            readiness.CountedUpTo(_applied.CountedThrough);
            if (caughtUp && !readiness.Ready.IsCompleted)
            {
                readiness.Complete(_fromCheckpoint, entries);
                logger.LogInformation("The sales matrix is ready: {Entries} ledger entries applied after the checkpoint in {Elapsed} ms",
                    entries, (long)Stopwatch.GetElapsedTime(started).TotalMilliseconds);
            }

            if (caughtUp && Stopwatch.GetElapsedTime(_lastCheckpoint) >= _options.CheckpointInterval)
            {
                StartCheckpoint();
            }

            if (caughtUp)
            {
                await Delay(_options.LedgerPollInterval, stoppingToken);
            }
        }
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        await base.StopAsync(cancellationToken);
        if (readiness.Ready.IsCompleted)
        {
            StartCheckpoint();
        }

        await _saving;
    }

    private async Task StartFromCheckpointAsync(CancellationToken stoppingToken)
    {
        while (true)
        {
            try
            {
                _ledgerId = await ledger.LedgerIdAsync(stoppingToken);
                break;
            }
            catch (Exception exception) when (!stoppingToken.IsCancellationRequested)
            {
                logger.LogWarning("The sales ledger cannot be read yet (is the Purchases writer's database up?); trying again in 1 s: {Error}", exception.Message);
                await Delay(TimeSpan.FromSeconds(1), stoppingToken);
            }
        }

        var watch = Stopwatch.StartNew();
        try
        {
            if (checkpoint.TryLoad(_ledgerId, matrix, clock.GetUtcNow()) is { } applied)
            {
                _applied = applied;
                _fromCheckpoint = true;
                (_checkpointedMax, _checkpointedGaps) = (applied.Max, applied.Gaps.Count);
                logger.LogInformation("Loaded the checkpoint {Path} (ledger entries up to {Max}) in {Elapsed} ms", checkpoint.FilePath, applied.Max, watch.ElapsedMilliseconds);
            }
        }
        catch (Exception exception) when (exception is IOException or EndOfStreamException or InvalidDataException)
        {
            // A damaged checkpoint costs time, never a wrong count: start over from the whole ledger.
            logger.LogWarning(exception, "The checkpoint {Path} could not be read; rebuilding from the whole ledger", checkpoint.FilePath);
            matrix.Clear();
            _applied = new AppliedEntries();
        }

        _lastCheckpoint = Stopwatch.GetTimestamp();
    }

    private int Apply(IReadOnlyList<LedgerEntry> entries)
    {
        var applied = 0;
        var now = clock.GetUtcNow();
        foreach (var entry in entries)
        {
            if (!_applied.TryAdd((long)entry.Seq, now))
            {
                continue;
            }

            applied++;
            _lines.Clear();
            try
            {
                SalesLedgerEntry.Decode(entry.Sales, _lines);
            }
            catch (Exception exception) when (exception is FormatException or OverflowException)
            {
                logger.LogError("Sales ledger entry {Seq} cannot be read and is left out: {Error}", entry.Seq, exception.Message);
                metrics.LeftOut(_lines.Count);
            }

            var outside = matrix.RecordSales(CollectionsMarshal.AsSpan(_lines));
            if (outside > 0)
            {
                // The catalog the matrix was sized from is narrower than what was stored: reported, never a crash loop.
                logger.LogError("Sales ledger entry {Seq} holds {Lines} lines outside the catalog ({Items} items, {Stores} stores); they are not counted",
                    entry.Seq, outside, matrix.MaxItemId, matrix.MaxStores);
                metrics.LeftOut(outside);
            }

            metrics.Applied(entry.Purchases, now - new DateTimeOffset(DateTime.SpecifyKind(entry.StoredAt, DateTimeKind.Utc)));
        }

        return applied;
    }

    private void GiveUpOldGaps()
    {
        var given = _applied.GiveUpGapsSeenBefore(clock.GetUtcNow() - _options.LedgerGapTimeout);
        if (given > 0)
        {
            logger.LogInformation("Gave up {Count} ledger seqs unseen for {Timeout}: transactions that rolled back", given, _options.LedgerGapTimeout);
        }
    }

    /// <summary>Copies the matrix (tens of milliseconds) and saves the copy in the background, so counting goes on.</summary>
    private void StartCheckpoint()
    {
        _lastCheckpoint = Stopwatch.GetTimestamp();
        if (!_saving.IsCompleted || (_applied.Max == _checkpointedMax && _applied.Gaps.Count == _checkpointedGaps))
        {
            return;
        }

        _copy ??= new SalesMatrix(matrix.MaxItemId, matrix.MaxStores);
        matrix.CopyTo(_copy);
        var (max, gaps) = (_applied.Max, _applied.Gaps.Select(gap => (gap.From, gap.To)).ToList());
        (_checkpointedMax, _checkpointedGaps) = (max, gaps.Count);
        var copy = _copy;
        _saving = Task.Run(() =>
        {
            var watch = Stopwatch.StartNew();
            try
            {
                checkpoint.Save(_ledgerId, copy, max, gaps);
                logger.LogInformation("Saved a checkpoint of the sales matrix (ledger entries up to {Max}) in {Elapsed} ms", max, watch.ElapsedMilliseconds);
            }
            catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
            {
                _checkpointedMax = -1;
                logger.LogWarning(exception, "Saving a checkpoint to {Path} failed; the next one tries again", checkpoint.FilePath);
            }
        });
    }

    private static async Task Delay(TimeSpan delay, CancellationToken stoppingToken)
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
