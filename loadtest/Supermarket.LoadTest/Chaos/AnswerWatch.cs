namespace Supermarket.LoadTest.Chaos;

/// <summary>
/// Asks the sales question for each store in turn while a chaos day runs, and fails the day if an answer goes back:
/// counted through fewer ledger entries than an answer before it, or fewer units at a store than that store's answer
/// before. Counts only grow, so either means an answer from a matrix that was not whole (a rebuild answered from while
/// it ran, issue #42): the day's verification at its end cannot see that, since by then the matrix is whole again.
/// Questions that get no answer are counted by the status that came instead: not answering (504 while the aggregator
/// rebuilds or restarts, 503 with shards) is allowed, except in a scenario that promises every answer
/// (<see cref="ChaosScenario.EveryQuestionAnswered"/>), which <see cref="ScenarioOutcome"/> judges from these counts.
/// </summary>
public sealed class AnswerWatch(ISalesAnswers answers, int stores)
{
    /// <summary>The pause between two questions: short, so that a rebuild of a few pages of ledger is asked during.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(10);

    private readonly SortedDictionary<int, int> _unanswered = [];
    private readonly List<double> _unansweredAt = [];
    private int _answered;

    /// <summary>Answers seen, and the questions that got none by what came instead and when; read once the watch has
    /// ended.</summary>
    public WatchedQuestions Asked => new(_answered, new SortedDictionary<int, int>(_unanswered)) { UnansweredAt = [.. _unansweredAt] };

    /// <summary>Asks until <paramref name="until"/> ends.</summary>
    /// <returns>The first answer that went back, said in words; null when none did.</returns>
    public async Task<string?> WatchAsync(Task until, CancellationToken cancellationToken)
    {
        var units = new Dictionary<int, SalesAnswerSeen>();
        SalesAnswerSeen? furthest = null;
        var watching = System.Diagnostics.Stopwatch.StartNew();
        for (var store = 1; !until.IsCompleted; store = (store % stores) + 1)
        {
            var asked = watching.Elapsed.TotalSeconds;
            var reply = await answers.AskAsync(store, cancellationToken);
            if (reply.Answer is not { } seen)
            {
                _unanswered[reply.Status] = _unanswered.GetValueOrDefault(reply.Status) + 1;
                _unansweredAt.Add(asked);
            }
            else
            {
                _answered++;
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

/// <summary>What a day's <see cref="AnswerWatch"/> asked: the answers seen, and the questions that got none, counted by
/// the status that came instead (<see cref="SalesReply.NoResponse"/>: no response at all).</summary>
public sealed record WatchedQuestions(int Answered, IReadOnlyDictionary<int, int> Unanswered)
{
    public int UnansweredCount => Unanswered.Values.Sum();

    /// <summary>When each unanswered question was asked, in seconds from the watch's start (about the day's), to set
    /// beside the fault's and the recovery's times.</summary>
    public IReadOnlyList<double> UnansweredAt { get; init; } = [];

    /// <summary>The first few of <see cref="UnansweredAt"/>, in words: "at 61.2 s, 61.4 s"; empty when none.</summary>
    public string DescribeWhen() => UnansweredAt.Count == 0
        ? ""
        : "at " + string.Join(", ", UnansweredAt.Take(10).Select(at => string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{at:F1} s")))
          + (UnansweredAt.Count > 10 ? ", …" : "");

    /// <summary>The questions that got no answer, in words: "503 × 3, 504 × 1"; "none" when every one was answered.</summary>
    public string DescribeUnanswered() => UnansweredCount == 0
        ? "none"
        : string.Join(", ", Unanswered.Select(refused => $"{SalesReply.Describe(refused.Key)} × {refused.Value}"));
}
