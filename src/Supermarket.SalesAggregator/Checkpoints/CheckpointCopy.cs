using System.Diagnostics;
using Supermarket.Contracts.Sales;
using Supermarket.SalesAggregator.Counting;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Checkpoints;

/// <summary>On the feed's thread, the only one that records, so no copy is torn: the chunks changed since the
/// base while few, else a whole copy a part after each read, as a new base (docs/architecture.md, "Guarantees").</summary>
public sealed class CheckpointCopy(SalesMatrix matrix, SalesCheckpoint checkpoint, TimeSpan interval, ILogger logger)
{
    private const int ChunksAChangeAtMost = 32;

    private readonly MatrixChanges _changed = new(matrix);
    private Task<Saved?> _saving = Task.FromResult<Saved?>(null);
    private LedgerPosition? _checkpointed;
    private long _lastBegun;

    // Null until this process saved one: a start never saves beside a base it read (another process's file).
    private string? _base;

    // Moves on as the marks are cleared: a save begun before names a base they no longer count from.
    private int _marksSince;

    private SalesMatrix? _copy;
    private long _copied;

    public bool Copying => _copy is not null;

    public bool Due => Stopwatch.GetElapsedTime(_lastBegun) >= interval;

    public Task Saving => _saving;

    public void Started(LedgerPosition? loaded) => (_checkpointed, _lastBegun) = (loaded, Stopwatch.GetTimestamp());

    public void Counted(ReadOnlySpan<SaleLine> lines)
    {
        _changed.Mark(lines);
        if (_copy is not null)
        {
            matrix.RecordSalesCopied(_copy, lines, _copied);
        }
    }

    public void Cleared()
    {
        (_copy, _base, _checkpointed) = (null, null, null);
        ClearMarks();
    }

    public void Begin(Guid ledgerId, LedgerPosition position, Func<SavedSales> days)
    {
        _lastBegun = Stopwatch.GetTimestamp();
        if (!NothingSavingAndSomethingNew(position))
        {
            return;
        }

        if (ChangedSinceBase() is { } changed)
        {
            SaveInBackground(ledgerId, changed, days(), position);
            return;
        }

        (_copy, _copied, _base) = (NewCopy(), 0, null);
        ClearMarks();
        CopyNextPart(ledgerId, position, days);
    }

    public void CopyNextPart(Guid ledgerId, LedgerPosition position, Func<SavedSales> days)
    {
        var count = (int)Math.Min(SalesMatrix.CountersPerCopyPart, matrix.Counters - _copied);
        matrix.CopyCountersTo(_copy!, _copied, count);
        _copied += count;
        if (_copied == matrix.Counters)
        {
            SaveInBackground(ledgerId, new SavedMatrix.Whole(_copy!), days(), position);
            _copy = null;
        }
    }

    public async Task SaveAtStopAsync(Guid ledgerId, LedgerPosition position, Func<SavedSales> days)
    {
        _copy = null;
        if (NothingSavingAndSomethingNew(position))
        {
            if (ChangedSinceBase() is { } changed)
            {
                SaveInBackground(ledgerId, changed, days(), position);
            }
            else
            {
                var copy = NewCopy();
                ClearMarks();
                matrix.CopyTo(copy);
                SaveInBackground(ledgerId, new SavedMatrix.Whole(copy), days(), position);
            }
        }

        await _saving;
    }

    private void ClearMarks()
    {
        _changed.Clear();
        _marksSince++;
    }

    // Changed chunks, while copying them here costs the next read no more than a part of a whole copy; null: a base is due.
    private SavedMatrix.Changed? ChangedSinceBase() =>
        _base is { } name && _changed.Count <= _changed.Chunks / ChunksAChangeAtMost
            ? new SavedMatrix.Changed(matrix, name, _changed.Take())
            : null;

    private bool NothingSavingAndSomethingNew(LedgerPosition position)
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

        return position != _checkpointed;
    }

    private SalesMatrix NewCopy() => new(matrix.MaxItemId, matrix.MaxStores, matrix.Items);

    private void SaveInBackground(Guid ledgerId, SavedMatrix saving, SavedSales days, LedgerPosition position)
    {
        SavedMatrix? matrixSaved = saving;
        var marksSince = _marksSince;
        _saving = Task.Run<Saved?>(() =>
        {
            var watch = Stopwatch.StartNew();
            var whole = matrixSaved is SavedMatrix.Whole;
            try
            {
                var saved = checkpoint.Save(ledgerId, matrixSaved!, days, position);
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
                // A whole copy let go is kept until memory runs short: collected now, so replicas hold no second matrix.
                matrixSaved = null;
                if (whole)
                {
                    GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: false);
                }
            }
        });
    }

    private sealed record Saved(LedgerPosition Position, string Base, int MarksSince);
}
