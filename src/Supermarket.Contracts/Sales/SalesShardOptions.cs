using System.ComponentModel.DataAnnotations;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Contracts.Sales;

/// <summary>Shards own contiguous item ranges that follow from <see cref="Count"/> and <c>Catalog:MaxItemId</c> alone,
/// so the API and the aggregators, reading the same section, never disagree on them.</summary>
public sealed class SalesShardOptions
{
    public const string Section = "SalesShards";

    [Range(1, 64)]
    public int Count { get; set; } = 1;

    public ItemRange ItemsOf(int shard, int maxItemId)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(shard, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(shard, Count);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxItemId, Count);
        return new ItemRange(LastItemOf(shard - 1, maxItemId) + 1, LastItemOf(shard, maxItemId));
    }

    public int ShardOf(int itemId, int maxItemId)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(itemId, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(itemId, maxItemId);
        return (int)((((long)itemId * Count) + maxItemId - 1) / maxItemId);
    }

    private int LastItemOf(int shard, int maxItemId) => (int)((long)shard * maxItemId / Count);
}
