using Supermarket.Api.Insights;
using Supermarket.Contracts.Sales;

namespace Supermarket.Api.Tests.Insights;

/// <summary>The merge of the shards' "top items at a store": the answer one aggregator would give.</summary>
public sealed class ShardAnswersTests
{
    [Fact]
    public void The_best_of_every_shard_are_ranked_together_ties_to_the_lower_item_counted_through_the_lowest_seq()
    {
        var question = new TopItemsForStore(StoreId: 7, Count: 3);
        TopItemsAtStore[] answers =
        [
            new(7, [new ItemSales(10, 50), new ItemSales(3, 20), new ItemSales(4, 20)], CountedThrough: 120),
            new(7, [new ItemSales(60, 40), new ItemSales(51, 20)], CountedThrough: 118),
            new(7, [], CountedThrough: 125),
        ];

        var merged = ShardAnswers.Merge(question, answers);

        Assert.Equal([new ItemSales(10, 50), new ItemSales(60, 40), new ItemSales(3, 20)], merged.Items);
        Assert.Equal(118, merged.CountedThrough);
        Assert.Equal(7, merged.StoreId);
    }
}
