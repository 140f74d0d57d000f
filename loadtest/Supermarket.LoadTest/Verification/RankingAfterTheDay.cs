namespace Supermarket.LoadTest.Verification;

/// <summary>
/// A ranking the matrix answered after the day, checked against the one it answered before the day and the day's own
/// sales (the ledger's entries since): what a day's verification can say of a store or an item whose history is too
/// long to sum again after each day. A ranking is most units first, ties by the lower id, and never holds an id with
/// no units.
/// </summary>
public static class RankingAfterTheDay
{
    /// <summary>What does not add up, empty when everything does: an id ranked both times must have gained exactly its
    /// day's units; an id that entered the ranking cannot have ranked ahead of the last one ranked before the day; an
    /// id that left it (or sold that day and is not ranked) cannot rank ahead of the last one ranked now; a ranking
    /// shorter than <paramref name="size"/> holds every id with units.</summary>
    public static IReadOnlyList<string> Problems(IReadOnlyList<(int Id, long Units)> before, IReadOnlyList<(int Id, long Units)> after,
        IReadOnlyDictionary<int, long> day, int size)
    {
        var problems = new List<string>();
        for (var i = 1; i < after.Count; i++)
        {
            if (Ahead(after[i], after[i - 1]))
            {
                problems.Add($"{after[i].Id} ({after[i].Units} units) is ranked after {after[i - 1].Id} ({after[i - 1].Units})");
            }
        }

        var had = before.ToDictionary(entry => entry.Id, entry => entry.Units);
        var has = after.ToDictionary(entry => entry.Id, entry => entry.Units);
        foreach (var (id, units) in after)
        {
            var sold = day.GetValueOrDefault(id);
            if (had.TryGetValue(id, out var earlier))
            {
                if (units != earlier + sold)
                {
                    problems.Add($"{id}: {units} units, where it had {earlier} before the day and sold {sold} in it");
                }
            }
            else if (units < sold)
            {
                problems.Add($"{id}: {units} units, fewer than the {sold} it sold in the day");
            }
            else if (before.Count < size && units != sold)
            {
                problems.Add($"{id}: {units} units, where it had none before the day and sold {sold} in it");
            }
            else if (before.Count >= size && Ahead((id, units - sold), before[^1]))
            {
                problems.Add($"{id}: had {units - sold} units before the day, yet {before[^1].Id} ({before[^1].Units}) was ranked last then");
            }
        }

        foreach (var id in had.Keys.Union(day.Where(sale => sale.Value > 0).Select(sale => sale.Key)).Where(id => !has.ContainsKey(id)))
        {
            var least = had.GetValueOrDefault(id) + day.GetValueOrDefault(id);
            if (after.Count < size)
            {
                problems.Add($"{id}: at least {least} units, and not ranked in a ranking of {after.Count}");
            }
            else if (Ahead((id, least), after[^1]))
            {
                problems.Add($"{id}: at least {least} units, yet not ranked ahead of {after[^1].Id} ({after[^1].Units})");
            }
        }

        return problems;
    }

    /// <summary>Whether <paramref name="a"/> ranks ahead of <paramref name="b"/>: more units, or as many and the lower id.</summary>
    private static bool Ahead((int Id, long Units) a, (int Id, long Units) b) => a.Units > b.Units || (a.Units == b.Units && a.Id < b.Id);
}
