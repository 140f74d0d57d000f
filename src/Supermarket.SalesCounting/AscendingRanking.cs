using System.Numerics;

namespace Supermarket.SalesCounting;

/// <summary>The K best seen so far, kept sorted. Candidates arrive in ascending id order, so a candidate that only
/// ties the K-th best loses the tie and is never inserted (<see cref="RangeRanking"/> takes any order).</summary>
internal ref struct AscendingRanking(Span<RankedSales> best)
{
    private readonly Span<RankedSales> _best = best;

    public int Count { get; private set; }

    /// <summary>A candidate must sell more than this to enter; zero until the ranking is full.</summary>
    public readonly long Threshold => Count < _best.Length ? 0 : _best[^1].Units;

    public void Offer(int id, long units)
    {
        if (units <= Threshold)
        {
            return;
        }

        var position = Count < _best.Length ? Count++ : _best.Length - 1;
        while (position > 0 && _best[position - 1].Units < units)
        {
            _best[position] = _best[position - 1];
            position--;
        }

        _best[position] = new RankedSales(id, units);
    }

    /// <summary>A vector of candidates none of which passes the threshold (most, once full) is passed over in one
    /// comparison, a branch that rarely goes either way.</summary>
    public void OfferInOrder(ReadOnlySpan<long> units, int firstId)
    {
        var at = 0;
        if (Vector.IsHardwareAccelerated)
        {
            var width = Vector<long>.Count;
            for (; at <= units.Length - width; at += width)
            {
                if (Vector.GreaterThanAny(new Vector<long>(units.Slice(at, width)), new Vector<long>(Threshold)))
                {
                    for (var lane = at; lane < at + width; lane++)
                    {
                        Offer(firstId + lane, units[lane]);
                    }
                }
            }
        }

        for (; at < units.Length; at++)
        {
            Offer(firstId + at, units[at]);
        }
    }
}
