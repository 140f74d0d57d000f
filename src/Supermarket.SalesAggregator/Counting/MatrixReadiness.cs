using System.Diagnostics;

namespace Supermarket.SalesAggregator.Counting;

/// <summary>Whole: caught up since the start or the last rebuild. Questions wait for it rather than get a half-built
/// answer. Written by the recording thread, read by the questions.</summary>
public sealed class MatrixReadiness
{
    private TaskCompletionSource _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _countedThrough;
    private long _rebuilds;
    private long _waitingFor;
    private long _waitingSince;
    private long _readsBegun;
    private long _caughtUpRead;
    private TaskCompletionSource _readWanted = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private TaskCompletionSource _nextCaughtUp = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private TaskCompletionSource _rebuildBegun = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public Task Ready => Volatile.Read(ref _ready).Task;

    public Task RebuildBegun => Volatile.Read(ref _rebuildBegun).Task;

    /// <summary>An answer ranked across a change of it may hold a half-cleared matrix.</summary>
    public long Rebuilds => Interlocked.Read(ref _rebuilds);

    public bool StartedFromCheckpoint { get; private set; }

    public long EntriesReadAtStart { get; private set; }

    public long CountedThrough => Volatile.Read(ref _countedThrough);

    public long? WaitingFor => Volatile.Read(ref _waitingFor) is var seq and > 0 ? seq : null;

    public TimeSpan WaitingTime => WaitingFor is null ? TimeSpan.Zero : Stopwatch.GetElapsedTime(Volatile.Read(ref _waitingSince));

    public void CountedUpTo(long seq) => Volatile.Write(ref _countedThrough, seq);

    /// <summary>Units of format 0 not dated yet: while any are left, ranges are refused, as none is exact.</summary>
    public long UndatedUnits
    {
        get => Volatile.Read(ref _undatedUnits);
        set => Volatile.Write(ref _undatedUnits, value);
    }

    private long _undatedUnits;

    /// <summary>A read numbered above this began after this was read, and sees every entry stored before.</summary>
    public long ReadsBegun => Interlocked.Read(ref _readsBegun);

    /// <summary>The last read that found nothing more: every entry stored before it began is in the matrix.</summary>
    public long CaughtUpRead => Volatile.Read(ref _caughtUpRead);

    public Task NextCaughtUp => Volatile.Read(ref _nextCaughtUp).Task;

    public Task ReadWanted => Volatile.Read(ref _readWanted).Task;

    public long BeginRead()
    {
        // Before the number: a question that reads the number after this still wakes the pause after the read.
        Volatile.Write(ref _readWanted, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
        return Interlocked.Increment(ref _readsBegun);
    }

    /// <summary>Not while an entry is missing below a readable one: a question waits or expires rather than get a 200
    /// without it (docs/operations.md, "A hole in the sales ledger").</summary>
    public void CaughtUp(long read)
    {
        if (WaitingFor is not null)
        {
            return;
        }

        Volatile.Write(ref _caughtUpRead, read);
        Interlocked.Exchange(ref _nextCaughtUp, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
    }

    public void WantRead() => Volatile.Read(ref _readWanted).TrySetResult();

    public bool Missing(long seq)
    {
        if (Volatile.Read(ref _waitingFor) == seq)
        {
            return false;
        }

        Volatile.Write(ref _waitingSince, Stopwatch.GetTimestamp());
        Volatile.Write(ref _waitingFor, seq);
        return true;
    }

    public void NothingMissing() => Volatile.Write(ref _waitingFor, 0);

    public TimeSpan? StartTook { get; private set; }

    public void Complete(bool fromCheckpoint, long entriesRead)
    {
        (StartedFromCheckpoint, EntriesReadAtStart) = (fromCheckpoint, entriesRead);
        StartTook ??= DateTime.Now - System.Diagnostics.Process.GetCurrentProcess().StartTime;
        Volatile.Read(ref _ready).TrySetResult();
    }

    public void Rebuilding()
    {
        if (Volatile.Read(ref _ready).Task.IsCompleted)
        {
            Volatile.Write(ref _ready, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
        }

        Interlocked.Increment(ref _rebuilds);
        CountedUpTo(0);
        // After the matrix is not ready: whoever waits for this then waits for Ready anew.
        Interlocked.Exchange(ref _rebuildBegun, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
    }
}
