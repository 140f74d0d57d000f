using Supermarket.Contracts.Sales;

namespace Supermarket.Api.Insights;

/// <summary>One answer from the sales shards' answers to the same question.</summary>
public static class ShardAnswers
{
    /// <summary>The best items at the store across every shard: each shard's best hold the overall best among them,
    /// since no item is in two shards. Ranked as one matrix ranks them, most units first and ties to the lower item
    /// id, so the answer is the one a single aggregator gives. Counted through the lowest seq any shard had counted:
    /// every entry up to it is in every shard's part. A range one shard refused is refused: the others' answers would
    /// leave its items out. The shards' counting, each as it answered.</summary>
    public static TopItemsAtStore Merge(TopItemsForStore question, IReadOnlyList<TopItemsAtStore> answers) =>
        answers.Count == 1
            ? answers[0]
            : new TopItemsAtStore(question.StoreId,
                [.. answers.SelectMany(answer => answer.Items).OrderByDescending(item => item.Units).ThenBy(item => item.ItemId).Take(question.Count)],
                answers.Min(answer => answer.CountedThrough),
                answers.Select(answer => answer.Refused).FirstOrDefault(refused => refused is not null),
                [.. answers.SelectMany(answer => answer.Counting ?? [])]);
}
