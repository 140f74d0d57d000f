using Supermarket.Contracts.Sales;

namespace Supermarket.Api.Insights;

public static class ShardAnswers
{
    /// <summary>No item is in two shards, so their best hold the overall best; ranked as one matrix ranks (ties to the
    /// lower id), so it is a single aggregator's answer. Counted through the lowest seq any shard counted; a range one
    /// shard refused is refused.</summary>
    public static TopItemsAtStore Merge(TopItemsForStore question, IReadOnlyList<TopItemsAtStore> answers) =>
        answers.Count == 1
            ? answers[0]
            : new TopItemsAtStore(question.StoreId,
                [.. answers.SelectMany(answer => answer.Items).OrderByDescending(item => item.Units).ThenBy(item => item.ItemId).Take(question.Count)],
                answers.Min(answer => answer.CountedThrough),
                answers.Select(answer => answer.Refused).FirstOrDefault(refused => refused is not null),
                [.. answers.SelectMany(answer => answer.Counting ?? [])]);
}
