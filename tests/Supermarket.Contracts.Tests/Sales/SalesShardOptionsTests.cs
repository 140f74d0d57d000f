using Supermarket.Contracts.Sales;

namespace Supermarket.Contracts.Tests.Sales;

/// <summary>The shards' ranges: every item in exactly one shard, and the shard the API asks for an item is the one
/// that counts it.</summary>
public sealed class SalesShardOptionsTests
{
    [Theory]
    [InlineData(1, 100_000)]
    [InlineData(4, 100_000)]
    [InlineData(3, 100_000)]
    [InlineData(4, 9)]
    [InlineData(7, 7)]
    [InlineData(64, 1_000)]
    public void The_shards_cover_every_item_once_in_order_and_none_is_empty(int count, int maxItemId)
    {
        var shards = new SalesShardOptions { Count = count };
        var ranges = Enumerable.Range(1, count).Select(shard => shards.ItemsOf(shard, maxItemId)).ToList();

        Assert.Equal(1, ranges[0].First);
        Assert.Equal(maxItemId, ranges[^1].Last);
        Assert.All(ranges, range => Assert.True(range.Count >= 1, $"{range} is empty"));
        Assert.All(ranges.Zip(ranges.Skip(1)), pair => Assert.Equal(pair.First.Last + 1, pair.Second.First));
        Assert.True(ranges.Max(range => range.Count) - ranges.Min(range => range.Count) <= 1, "the slices are not as equal as they can be");
    }

    [Theory]
    [InlineData(4, 100_000)]
    [InlineData(3, 10)]
    [InlineData(5, 12)]
    public void An_item_is_asked_of_the_shard_that_counts_it(int count, int maxItemId)
    {
        var shards = new SalesShardOptions { Count = count };

        for (var item = 1; item <= maxItemId; item += Math.Max(1, maxItemId / 997))
        {
            Assert.True(shards.ItemsOf(shards.ShardOf(item, maxItemId), maxItemId).Contains(item), $"item {item}");
        }
    }

    [Fact]
    public void Four_shards_of_the_default_catalog_hold_a_quarter_each()
    {
        var shards = new SalesShardOptions { Count = 4 };

        Assert.Equal("25001-50000", shards.ItemsOf(2, 100_000).ToString());
        Assert.Equal(4, shards.ShardOf(100_000, 100_000));
    }
}
