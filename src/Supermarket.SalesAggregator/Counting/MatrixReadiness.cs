using System.Diagnostics;

namespace Supermarket.SalesAggregator.Counting;

/// <summary>Whether the matrix is whole: caught up with the sales ledger since the aggregator started or since it last
/// began a rebuild. Questions wait for it rather than get an answer from a half-built matrix. Also says how the start
/// went (its cost is what a checkpoint bounds) and which ledger entry the feed is waiting for, if one is missing below
/// an entry it can read.</summary>
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

    /// <summary>Completes once the matrix is whole; a rebuild replaces it with one that has not.</summary>
    public Task Ready => Volatile.Read(ref _ready).Task;

    /// <summary>Completes when the next rebuild begins (the matrix then no longer ready).</summary>
    public Task RebuildBegun => Volatile.Read(ref _rebuildBegun).Task;

    /// <summary>How many rebuilds have begun: an answer ranked across a change of it may hold a half-cleared matrix.</summary>
    public long Rebuilds => Interlocked.Read(ref _rebuilds);

    /// <summary>Whether the start began from a checkpoint rather than from an empty matrix.</summary>
    public bool StartedFromCheckpoint { get; private set; }

    /// <summary>Ledger entries read at start, after the checkpoint if there was one.</summary>
    public long EntriesReadAtStart { get; private set; }

    /// <summary>Every sales ledger entry up to this seq is in the matrix. Set by the one thread that records, after
    /// it recorded; read by the questions.</summary>
    public long CountedThrough => Volatile.Read(ref _countedThrough);

    /// <summary>The seq the feed cannot read though it reads one above it; null when nothing is missing.</summary>
    public long? WaitingFor => Volatile.Read(ref _waitingFor) is var seq and > 0 ? seq : null;

    /// <summary>How long the feed has waited for <see cref="WaitingFor"/>; zero when nothing is missing.</summary>
    public TimeSpan WaitingTime => WaitingFor is null ? TimeSpan.Zero : Stopwatch.GetElapsedTime(Volatile.Read(ref _waitingSince));

    public void CountedUpTo(long seq) => Volatile.Write(ref _countedThrough, seq);

    /// <summary>Units counted from ledger entries of the format before entries carried their day, less those a dating
    /// entry has dated since: while any are left, no range of days is counted exactly, and range questions are
    /// refused. Set by the recording thread.</summary>
    public long UndatedUnits
    {
        get => Volatile.Read(ref _undatedLines);
        set => Volatile.Write(ref _undatedLines, value);
    }

    private long _undatedLines;

    /// <summary>How many reads of the ledger have begun: a read numbered above this began after this was read, and
    /// sees every entry stored before.</summary>
    public long ReadsBegun => Interlocked.Read(ref _readsBegun);

    /// <summary>The number of the last read that found nothing more to count and nothing missing: every entry stored
    /// before it began is in the matrix.</summary>
    public long CaughtUpRead => Volatile.Read(ref _caughtUpRead);

    /// <summary>Completes at the next read that finds nothing more to count.</summary>
    public Task NextCaughtUp => Volatile.Read(ref _nextCaughtUp).Task;

    /// <summary>Completes once a question wants a read begun after it arrived: the feed's pause ends there.</summary>
    public Task ReadWanted => Volatile.Read(ref _readWanted).Task;

    /// <summary>The feed begins a read of the ledger; returns its number.</summary>
    public long BeginRead()
    {
        // Before the number: a question that reads the number after this still wakes the pause that follows the read.
        Volatile.Write(ref _readWanted, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
        return Interlocked.Increment(ref _readsBegun);
    }

    /// <summary>The read numbered <paramref name="read"/> found nothing more to count. Not caught up while an entry is
    /// missing below a readable one (<see cref="Missing"/>): the matrix then lacks every entry from it on, and a
    /// question waits for it to turn up (or expires: 504, 503 with shards) rather than be answered 200 without them.
    /// Entries commit in seq order, so a hole below the ledger's head is one no append will fill; it is filled by hand (#72,
    /// docs/operations.md).</summary>
    public void CaughtUp(long read)
    {
        if (WaitingFor is not null)
        {
            return;
        }

        Volatile.Write(ref _caughtUpRead, read);
        Interlocked.Exchange(ref _nextCaughtUp, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
    }

    /// <summary>A question asks for a read begun after it arrived, without waiting out the feed's pause.</summary>
    public void WantRead() => Volatile.Read(ref _readWanted).TrySetResult();

    /// <summary>The feed read an entry above <paramref name="seq"/> but not <paramref name="seq"/> itself.</summary>
    /// <returns>True the first time this seq is found missing.</returns>
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

    /// <summary>From the process's start until the matrix was first whole: what a restart costs (issue #45 measures it
    /// from the checkpoint and from the whole ledger).</summary>
    public TimeSpan? StartTook { get; private set; }

    public void Complete(bool fromCheckpoint, long entriesRead)
    {
        (StartedFromCheckpoint, EntriesReadAtStart) = (fromCheckpoint, entriesRead);
        StartTook ??= DateTime.Now - System.Diagnostics.Process.GetCurrentProcess().StartTime;
        Volatile.Read(ref _ready).TrySetResult();
    }

    /// <summary>The matrix is about to be cleared and counted again: questions wait until it is whole again.</summary>
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
