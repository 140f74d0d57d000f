using Supermarket.LoadTest.Verification;

namespace Supermarket.LoadTest.Tests;

/// <summary>A day's verification on a long history checks each answer against the one before the day and the day's
/// ledger entries: these are the answers it must pass, and the wrong ones it must catch.</summary>
public sealed class RankingAfterTheDayTests
{
    private static readonly IReadOnlyList<(int Id, long Units)> Before = [(7, 50), (3, 40), (9, 40), (1, 30)];

    [Fact]
    public void An_answer_that_gained_exactly_the_days_sales_passes()
    {
        Assert.Empty(RankingAfterTheDay.Problems(Before, [(3, 52), (7, 50), (9, 41), (1, 30)], Day((3, 12), (9, 1)), size: 4));
    }

    [Fact]
    public void An_id_counted_twice_or_not_at_all_is_caught()
    {
        Assert.Single(RankingAfterTheDay.Problems(Before, [(3, 64), (7, 50), (9, 41), (1, 30)], Day((3, 12), (9, 1)), size: 4));
        Assert.Single(RankingAfterTheDay.Problems(Before, [(7, 50), (9, 41), (3, 40), (1, 30)], Day((3, 12), (9, 1)), size: 4));
    }

    [Fact]
    public void An_answer_out_of_the_matrix_order_is_caught()
    {
        // 9 and 3 tie: the lower id ranks first.
        Assert.Contains(RankingAfterTheDay.Problems(Before, [(7, 50), (9, 40), (3, 40), (1, 30)], Day(), size: 4), p => p.Contains("ranked after", StringComparison.Ordinal));
    }

    [Fact]
    public void An_id_that_enters_a_full_ranking_cannot_have_ranked_ahead_of_the_last_one_before_the_day()
    {
        // 5 sold 35 in the day and now has 60: 25 before, behind 1's 30. Fine.
        Assert.Empty(RankingAfterTheDay.Problems(Before, [(5, 60), (7, 50), (3, 40), (9, 40)], Day((5, 35)), size: 4));
        // Had it 60 with 20 sold, it had 40 before the day, ahead of 1's 30, and should have been ranked then.
        Assert.NotEmpty(RankingAfterTheDay.Problems(Before, [(5, 60), (7, 50), (3, 40), (9, 40)], Day((5, 20)), size: 4));
    }

    [Fact]
    public void An_id_that_leaves_a_full_ranking_or_sold_and_is_missing_cannot_rank_ahead_of_the_last_one_now()
    {
        // 1 had 30 and sold 20: 50, ahead of 9's 40, yet not ranked.
        Assert.NotEmpty(RankingAfterTheDay.Problems(Before, [(7, 50), (3, 40), (9, 40), (8, 40)], Day((1, 20), (8, 40)), size: 4));
        // 6 sold 45 in the day alone, ahead of the last ranked (40), yet not ranked.
        Assert.NotEmpty(RankingAfterTheDay.Problems(Before, [(7, 50), (3, 40), (9, 40), (1, 30)], Day((6, 45)), size: 3 + 1));
    }

    [Fact]
    public void A_short_ranking_holds_every_id_with_units()
    {
        Assert.Empty(RankingAfterTheDay.Problems(Before, [(7, 50), (3, 40), (9, 40), (1, 30), (2, 4)], Day((2, 4)), size: 10));
        Assert.NotEmpty(RankingAfterTheDay.Problems(Before, [(7, 50), (3, 40), (9, 40), (1, 30)], Day((2, 4)), size: 10));
        Assert.NotEmpty(RankingAfterTheDay.Problems(Before, [(7, 50), (3, 40), (9, 40), (1, 30), (2, 5)], Day((2, 4)), size: 10));
    }

    private static Dictionary<int, long> Day(params (int Id, long Units)[] sales) => sales.ToDictionary(sale => sale.Id, sale => sale.Units);
}
