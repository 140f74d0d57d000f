using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;
using Supermarket.SalesAggregator.Ledger;

namespace Supermarket.SalesAggregator.Tests.Ledger;

/// <summary>A sales ledger as the writer's database holds it, in memory: entries in seq order, read a page at a time.
/// A test can hide an entry (a reader that sees seq n+1 before n) and hold the reads from the start (a rebuild in
/// progress).</summary>
public sealed class LedgerInMemory(int pageSize) : ISalesLedger
{
    private static readonly DateTime Epoch = new(2026, 11, 24, 0, 0, 0, DateTimeKind.Utc);
    private readonly object _gate = new();
    private readonly HashSet<ulong> _hidden = [];
    private TaskCompletionSource _reads = Open();
    private List<LedgerEntry> _entries = [];
    private Action? _afterNextCheck;

    public Guid Id { get; } = Guid.CreateVersion7();

    /// <summary>Seqs at or below this may be missing for good: they were taken before the ledger was gapless.</summary>
    public long GaplessAfter { get; set; }

    /// <summary>A transaction's entry: one purchase of these lines, stored <paramref name="storedAfter"/> the epoch; a
    /// line given no day is of <see cref="Day"/>, as a writer writes every line with one.</summary>
    public ulong Append(SaleLine[] lines, TimeSpan storedAfter = default) =>
        Append(SalesLedgerEntry.Encode(lines.Select(line => line.Day == default ? line with { Day = Day } : line)), storedAfter);

    /// <summary>The day of the lines appended without one.</summary>
    public static readonly DateOnly Day = new(2021, 1, 1);

    public ulong Append(byte[] sales, TimeSpan storedAfter = default)
    {
        lock (_gate)
        {
            var seq = (_entries.Count == 0 ? 0 : _entries[^1].Seq) + 1;
            _entries.Add(new LedgerEntry(seq, Epoch + storedAfter + TimeSpan.FromMilliseconds(seq), 1, sales));
            return seq;
        }
    }

    /// <summary>An entry its readers cannot see yet, though entries after it are visible.</summary>
    public ulong AppendHidden(SaleLine[] lines)
    {
        lock (_gate)
        {
            var seq = Append(lines);
            _hidden.Add(seq);
            return seq;
        }
    }

    public void Reveal(ulong seq)
    {
        lock (_gate)
        {
            _hidden.Remove(seq);
        }
    }

    /// <summary>Entries that were never written under these seqs (rollbacks before the ledger was gapless).</summary>
    public void Drop(ulong seq)
    {
        lock (_gate)
        {
            _entries = [.. _entries.Where(entry => entry.Seq != seq)];
        }
    }

    /// <summary>Reads from the start of the ledger (a rebuild's) wait until <see cref="ReleaseReads"/>.</summary>
    public void HoldReadsFromTheStart()
    {
        lock (_gate)
        {
            _reads = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        }
    }

    public void ReleaseReads()
    {
        lock (_gate)
        {
            _reads.TrySetResult();
        }
    }

    /// <summary>The database restored from a backup: its own identity, but other entries under the same seqs.</summary>
    public void RestoreTo(IEnumerable<SaleLine[]> entries)
    {
        lock (_gate)
        {
            _entries = [];
        }

        foreach (var lines in entries)
        {
            Append(lines, storedAfter: TimeSpan.FromHours(1));
        }
    }

    public Task<LedgerIdentity> IdentityAsync(CancellationToken cancellationToken) => Task.FromResult(new LedgerIdentity(Id, GaplessAfter));

    /// <summary>Runs once, right after the next read of the ledger has seen the entry it reads from: what a restore of
    /// the database does when it lands in the middle of a read.</summary>
    public void AfterNextCheck(Action change)
    {
        lock (_gate)
        {
            _afterNextCheck = change;
        }
    }

    /// <summary>How many reads have begun.</summary>
    public int Reads => Volatile.Read(ref _readCount);

    private int _readCount;

    public async Task<LedgerRead> ReadFromAsync(long seq, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _readCount);
        Task reads;
        lock (_gate)
        {
            reads = seq == 0 ? _reads.Task : Task.CompletedTask;
        }

        await reads.WaitAsync(cancellationToken);
        LedgerRead read;
        Action? change;
        lock (_gate)
        {
            // One snapshot, as SalesLedgerReader's one statement sees: the change lands after it, whole.
            read = new LedgerRead(_entries.FirstOrDefault(entry => entry.Seq == (ulong)seq)?.StoredAt,
                [.. _entries.Where(entry => entry.Seq > (ulong)seq && !_hidden.Contains(entry.Seq)).Take(pageSize)]);
            (change, _afterNextCheck) = (_afterNextCheck, null);
        }

        change?.Invoke();
        return read;
    }

    private static TaskCompletionSource Open()
    {
        var open = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        open.SetResult();
        return open;
    }
}
