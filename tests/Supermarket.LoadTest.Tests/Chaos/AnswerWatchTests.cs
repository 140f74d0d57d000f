using Supermarket.LoadTest.Chaos;
using static Supermarket.LoadTest.Tests.Chaos.ScriptedAnswers;

namespace Supermarket.LoadTest.Tests.Chaos;

/// <summary>The watch over a chaos day's sales answers: counts only grow, so an answer that counted less than one
/// before it came from a matrix that was not whole; no answer at all (while the aggregator rebuilds) does not fail the
/// watch, and is counted by the status that came instead, for the scenarios that promise every answer.</summary>
public sealed class AnswerWatchTests
{
    [Fact]
    public async Task Answers_that_only_grow_with_unanswered_questions_between_them_pass()
    {
        // Stores asked in turn: 1, 2, 1, 2, 1, 2, 1.
        var answers = new ScriptedAnswers(
            Answer(1, 10, 5), Refused(), Answer(1, 12, 7), Refused(), Refused(), Answer(2, 15, 3), Answer(1, 15, 9));

        var (wentBack, asked) = await WatchAsync(answers, stores: 2);

        Assert.Null(wentBack);
        Assert.Equal(4, asked.Answered);
        Assert.Equal(3, asked.UnansweredCount);
    }

    [Fact]
    public async Task Unanswered_questions_are_counted_by_the_status_that_came_instead()
    {
        var answers = new ScriptedAnswers(
            Refused(503), Answer(2, 10, 5), Refused(504), Refused(503), SalesReply.Unanswered(SalesReply.NoResponse), Answer(2, 11, 5));

        var (_, asked) = await WatchAsync(answers, stores: 2);

        Assert.Equal(2, asked.Answered);
        Assert.Equal(new Dictionary<int, int> { [SalesReply.NoResponse] = 1, [503] = 2, [504] = 1 }, asked.Unanswered);
        Assert.Equal("no response × 1, 503 × 2, 504 × 1", asked.DescribeUnanswered());
        Assert.Equal(4, asked.UnansweredAt.Count);
        Assert.True(asked.UnansweredAt.SequenceEqual(asked.UnansweredAt.Order()), "the times are in the order asked");
        Assert.StartsWith("at ", asked.DescribeWhen(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_answer_that_counted_through_fewer_ledger_entries_than_one_before_fails_the_day()
    {
        // A rebuild answered from while it ran: the position went back to the start of the ledger.
        var answers = new ScriptedAnswers(Answer(1, 40, 90), Answer(2, 40, 30), Answer(1, 3, 4));

        var (wentBack, _) = await WatchAsync(answers, stores: 2);

        Assert.Equal("store 1's answer counted through ledger entry 3, after store 2's had counted through 40", wentBack);
    }

    [Fact]
    public async Task Fewer_units_at_a_store_than_its_answer_before_fails_the_day()
    {
        var answers = new ScriptedAnswers(Answer(1, 40, 90), Answer(1, 41, 89));

        var (wentBack, _) = await WatchAsync(answers, stores: 1);

        Assert.Equal("store 1's answer held 89 units (through entry 41), after one that held 90 (through 40)", wentBack);
    }

    private static async Task<(string? WentBack, WatchedQuestions Asked)> WatchAsync(ScriptedAnswers answers, int stores)
    {
        var watch = new AnswerWatch(answers, stores);
        var wentBack = await watch.WatchAsync(answers.Done, CancellationToken.None);
        return (wentBack, watch.Asked);
    }
}
