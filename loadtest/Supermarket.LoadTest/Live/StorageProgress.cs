using Supermarket.Database.LoadTest;

namespace Supermarket.LoadTest.Live;

/// <summary>
/// How many of the run's purchases MySQL holds and the matrix has counted, while the run goes on. The sales ledger
/// says how many purchases each transaction newly stored; it is read on from the last entry seen, so each reading
/// costs what was stored since the previous one, however long the history. The matrix's progress is the ledger entry
/// every sales answer names in its header.
/// </summary>
public sealed class StorageProgress(StoredSales stored, HttpClient api, long ledgerBefore)
{
    // Ledger entries of this run, in order, with the purchases stored up to and including each.
    private readonly List<(long Seq, long Stored)> _entries = [];
    private long _lastSeq = ledgerBefore;
    private long _stored;

    /// <summary>Purchases stored since the run began, and of those, counted by the matrix (null: unknown now).</summary>
    public async Task<(long? Stored, long? Counted)> ReadAsync()
    {
        try
        {
            var entries = await stored.LedgerEntriesAfterAsync(_lastSeq);
            foreach (var (seq, purchases) in entries)
            {
                _stored += purchases;
                _entries.Add((seq, _stored));
                _lastSeq = seq;
            }
        }
        catch (Exception exception) when (DatabaseOutage.Explains(exception))
        {
            return (null, null);
        }

        return (_stored, await CountedAsync());
    }

    private async Task<long?> CountedAsync()
    {
        if (await SalesCountedThrough.ReadAsync(api) is not { } countedThrough)
        {
            return null;
        }

        // The last entry at or before the one counted through.
        var index = _entries.BinarySearch((countedThrough, long.MaxValue), Comparer<(long Seq, long Stored)>.Create((a, b) => a.Seq.CompareTo(b.Seq)));
        index = index >= 0 ? index : ~index - 1;
        return index < 0 ? 0 : _entries[index].Stored;
    }
}
