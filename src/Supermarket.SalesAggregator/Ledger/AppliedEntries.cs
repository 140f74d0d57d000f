namespace Supermarket.SalesAggregator.Ledger;

/// <summary>
/// Which sales ledger entries the matrix holds: every seq up to <see cref="Max"/> except the <see cref="Gaps"/>.
/// An entry is applied once, whatever the age of a second read of it.
/// </summary>
/// <remarks>
/// Seqs are handed out when a writer's transaction begins its ledger insert and become visible when it commits, so
/// with several transactions at once a higher seq can be seen before a lower one: the lower one is a gap until it
/// shows up. A transaction that rolls back leaves its seq unused forever; a gap older than the longest a transaction
/// can stay open is such a seq, and is given up (<see cref="GiveUpGapsSeenBefore"/>). Gaps are few (transactions in
/// flight plus rollbacks), so a list is enough.
/// </remarks>
public sealed class AppliedEntries
{
    private readonly List<Gap> _gaps = [];

    public long Max { get; private set; }

    public IReadOnlyList<Gap> Gaps => _gaps;

    /// <summary>The highest seq with every seq up to it applied (or given up).</summary>
    public long CountedThrough => _gaps.Count == 0 ? Max : _gaps.Min(gap => gap.From) - 1;

    /// <summary>True if the entry is new (and is now applied); false if it was applied already.</summary>
    public bool TryAdd(long seq, DateTimeOffset now)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(seq, 1);
        if (seq > Max)
        {
            if (seq > Max + 1)
            {
                _gaps.Add(new Gap(Max + 1, seq - 1, now));
            }

            Max = seq;
            return true;
        }

        var index = _gaps.FindIndex(gap => gap.From <= seq && seq <= gap.To);
        if (index < 0)
        {
            return false;
        }

        var found = _gaps[index];
        _gaps.RemoveAt(index);
        if (seq < found.To)
        {
            _gaps.Insert(index, found with { From = seq + 1 });
        }

        if (found.From < seq)
        {
            _gaps.Insert(index, found with { To = seq - 1 });
        }

        return true;
    }

    /// <summary>Gives up the gaps first seen before <paramref name="cutoff"/>: rolled-back seqs that will never be
    /// stored. Returns how many seqs that was.</summary>
    public long GiveUpGapsSeenBefore(DateTimeOffset cutoff)
    {
        long given = 0;
        foreach (var gap in _gaps.Where(gap => gap.FirstSeen < cutoff))
        {
            given += gap.To - gap.From + 1;
        }

        _gaps.RemoveAll(gap => gap.FirstSeen < cutoff);
        return given;
    }

    /// <summary>Restores what a checkpoint saved; its gaps count as first seen <paramref name="now"/>.</summary>
    public static AppliedEntries Restore(long max, IEnumerable<(long From, long To)> gaps, DateTimeOffset now)
    {
        var applied = new AppliedEntries { Max = max };
        applied._gaps.AddRange(gaps.Select(gap => new Gap(gap.From, gap.To, now)));
        return applied;
    }

    /// <summary>Seqs <paramref name="From"/> to <paramref name="To"/>, not applied yet.</summary>
    public readonly record struct Gap(long From, long To, DateTimeOffset FirstSeen);
}
