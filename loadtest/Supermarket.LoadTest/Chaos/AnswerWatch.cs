namespace Supermarket.LoadTest.Chaos;

/// <summary>
/// Asks the sales question for each store in turn while a chaos day runs, and fails the day if an answer goes back:
/// counted through fewer ledger entries than an answer before it, or fewer units at a store than that store's answer
/// before. Counts only grow, so either means an answer from a matrix that was not whole (a rebuild answered from while
/// it ran, issue #42): the day's verification at its end cannot see that, since by then the matrix is whole again. Not
/// answering (504 while the aggregator rebuilds or restarts) is allowed.
/// </summary>
public sealed class AnswerWatch(ISalesAnswers answers, int stores)
{
    /// <summary>The pause between two questions: short, so that a rebuild of a few pages of ledger is asked during.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(10);

    /// <summary>Answers seen, and how many questions got none.</summary>
    public (int Answered, int Unanswered) Asked { get; private set; }

    /// <summary>Asks until <paramref name="until"/> ends.</summary>
    /// <returns>The first answer that went back, said in words; null when none did.</returns>
    public async Task<string?> WatchAsync(Task until, CancellationToken cancellationToken)
    {
        var units = new Dictionary<int, SalesAnswerSeen>();
        SalesAnswerSeen? furthest = null;
        for (var store = 1; !until.IsCompleted; store = (store % stores) + 1)
        {
            if (await answers.AskAsync(store, cancellationToken) is not { } seen)
            {
                Asked = (Asked.Answered, Asked.Unanswered + 1);
            }
            else
            {
                Asked = (Asked.Answered + 1, Asked.Unanswered);
                if (furthest is not null && seen.CountedThrough < furthest.CountedThrough)
                {
                    return $"store {seen.Store}'s answer counted through ledger entry {seen.CountedThrough}, after store {furthest.Store}'s had counted through {furthest.CountedThrough}";
                }

                if (units.TryGetValue(store, out var before) && seen.Units < before.Units)
                {
                    return $"store {store}'s answer held {seen.Units} units (through entry {seen.CountedThrough}), after one that held {before.Units} (through {before.CountedThrough})";
                }

                (furthest, units[store]) = (seen, seen);
            }

            await Task.WhenAny(until, Task.Delay(Interval, cancellationToken));
        }

        return null;
    }
}
