namespace Supermarket.SalesCounting;

/// <summary>The K best offered so far, ties by the lower id: unlike <see cref="AscendingRanking"/>, candidates may
/// come in any order, so a tie is settled by the ids rather than by who came first.</summary>
internal ref struct RangeRanking(Span<RankedSales> best)
{
    private readonly Span<RankedSales> _best = best;

    public int Count { get; private set; }

    public void Offer(int id, long units)
    {
        if (units <= 0 || (Count == _best.Length && !Beats(id, units, _best[^1])))
        {
            return;
        }

        var position = Count < _best.Length ? Count++ : _best.Length - 1;
        while (position > 0 && Beats(id, units, _best[position - 1]))
        {
            _best[position] = _best[position - 1];
            position--;
        }

        _best[position] = new RankedSales(id, units);
    }

    private static bool Beats(int id, long units, RankedSales other) =>
        units > other.Units || (units == other.Units && id < other.Id);
}
