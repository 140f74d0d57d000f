using Supermarket.Contracts.Ledger;
using Supermarket.SalesAggregator.Ledger;

namespace Supermarket.SalesAggregator.Tests.Ledger;

/// <summary>A sales ledger as the writer's database holds it, in memory: entries in seq order, read a page at a time.</summary>
public sealed class LedgerInMemory(int pageSize) : ISalesLedger
{
    private static readonly DateTime Epoch = new(2026, 11, 24, 0, 0, 0, DateTimeKind.Utc);
    private readonly object _gate = new();
    private List<LedgerEntry> _entries = [];

    public Guid Id { get; } = Guid.CreateVersion7();

    /// <summary>A transaction's entry: one purchase of these lines, stored <paramref name="storedAfter"/> the epoch.</summary>
    public void Append(SaleLine[] lines, TimeSpan storedAfter = default) => Append(SalesLedgerEntry.Encode(lines), storedAfter);

    public void Append(byte[] sales, TimeSpan storedAfter = default)
    {
        lock (_gate)
        {
            var seq = (ulong)_entries.Count + 1;
            _entries.Add(new LedgerEntry(seq, Epoch + storedAfter + TimeSpan.FromMilliseconds(seq), 1, sales));
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

    public Task<Guid> LedgerIdAsync(CancellationToken cancellationToken) => Task.FromResult(Id);

    public Task<DateTime?> StoredAtAsync(long seq, CancellationToken cancellationToken)
    {
        lock (_gate)
        {
            return Task.FromResult(seq >= 1 && seq <= _entries.Count ? _entries[(int)seq - 1].StoredAt : (DateTime?)null);
        }
    }

    public Task<IReadOnlyList<LedgerEntry>> ReadAfterAsync(long seq, CancellationToken cancellationToken)
    {
        lock (_gate)
        {
            return Task.FromResult<IReadOnlyList<LedgerEntry>>([.. _entries.Skip((int)seq).Take(pageSize)]);
        }
    }
}
