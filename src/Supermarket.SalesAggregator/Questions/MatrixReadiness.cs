namespace Supermarket.SalesAggregator.Questions;

/// <summary>Whether the matrix has caught up with the sales ledger since the aggregator started; questions wait for
/// it rather than get an answer from a half-built matrix. Also says how the start went, since its cost is what a
/// checkpoint bounds.</summary>
public sealed class MatrixReadiness
{
    private readonly TaskCompletionSource _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _countedThrough;

    public Task Ready => _ready.Task;

    /// <summary>Whether the start began from a checkpoint rather than from an empty matrix.</summary>
    public bool StartedFromCheckpoint { get; private set; }

    /// <summary>Ledger entries read at start, after the checkpoint if there was one.</summary>
    public long EntriesReadAtStart { get; private set; }

    /// <summary>Every sales ledger entry up to this seq is in the matrix. Set by the one thread that records, after
    /// it recorded; read by the questions.</summary>
    public long CountedThrough => Volatile.Read(ref _countedThrough);

    public void CountedUpTo(long seq) => Volatile.Write(ref _countedThrough, seq);

    public void Complete(bool fromCheckpoint, long entriesRead)
    {
        (StartedFromCheckpoint, EntriesReadAtStart) = (fromCheckpoint, entriesRead);
        _ready.TrySetResult();
    }
}
