using System.Diagnostics;
using Supermarket.Contracts.Sales;
using Supermarket.SalesAggregator.Ledger;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Checkpoints;

/// <summary>
/// Takes the feed's checkpoints, on the feed's thread (the only one that records, so no copy is torn): the chunks
/// changed since the last base at once while they are few, otherwise a whole copy a part after each read of the ledger,
/// saved in the background as the new base (docs/architecture.md, "Guarantees").
/// </summary>
public sealed class CheckpointCopy(SalesMatrix matrix, SalesCheckpoint checkpoint, TimeSpan interval, ILogger logger)
{
    /// <summary>A save of the chunks changed since the base while they are at most one in this many.</summary>
    private const int ChunksAChangeAtMost = 32;

    private readonly MatrixChanges _changed = new(matrix);
    private Task<Saved?> _saving = Task.FromResult<Saved?>(null);
    private LedgerPosition? _checkpointed;
    private long _lastBegun;

    /// <summary>The base file saves of changes name; null while none is saved by this process (a start never saves
    /// beside a base it read: another process's file).</summary>
    private string? _base;

    /// <summary>Moves on each time the marks are cleared: a save begun before names a base they no longer count from.</summary>
    private int _marksSince;

    /// <summary>A whole copy while it is taken, and how many counters it holds so far.</summary>
    private SalesMatrix? _copy;
    private long _copied;

    /// <summary>Whether a whole copy is under way: the feed reads again at once, and copies its next part after.</summary>
    public bool Copying => _copy is not null;

    /// <summary>Whether the interval since the last checkpoint begun has passed.</summary>
    public bool Due => Stopwatch.GetElapsedTime(_lastBegun) >= interval;

    /// <summary>The save under way, or the last one.</summary>
    public Task Saving => _saving;

    /// <summary>The feed has started, from a checkpoint that holds the matrix as of <paramref name="loaded"/>, or from
    /// nothing: the interval counts from now.</summary>
    public void Started(LedgerPosition? loaded) => (_checkpointed, _lastBegun) = (loaded, Stopwatch.GetTimestamp());

    /// <summary>The lines the feed just counted into the matrix: marked as changed, and added to the parts of a whole
    /// copy already taken.</summary>
    public void Counted(ReadOnlySpan<SaleLine> lines)
    {
        _changed.Mark(lines);
        if (_copy is not null)
        {
            matrix.RecordSalesCopied(_copy, lines, _copied);
        }
    }

    /// <summary>The matrix was cleared for a rebuild: nothing taken before it is saved.</summary>
    public void Cleared()
    {
        (_copy, _base, _checkpointed) = (null, null, null);
        ClearMarks();
    }

    /// <summary>Begins a checkpoint as of <paramref name="position"/>, unless one is saving or nothing is new.</summary>
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

    /// <summary>Copies the next part; once the last is copied the copy equals the matrix as of
    /// <paramref name="position"/>, and is saved.</summary>
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

    /// <summary>With nothing recording any more (the feed stopped), saves what is new at once, whole or changed, and
    /// waits for it.</summary>
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

    /// <summary>The chunks changed since the base, while few enough that copying them on the feed's thread holds up
    /// its next read no longer than a part of a whole copy; null when a base is due.</summary>
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
                // A whole copy let go is a large object kept until memory runs short: collected now, so replicas do
                // not each hold a second matrix.
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
}
