using System.ComponentModel.DataAnnotations;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Contracts.Sales;

/// <summary>
/// How the sales matrix is split across aggregators: <see cref="Count"/> shards, each owning a contiguous range of
/// item ids, so "top stores for an item" is one shard's question and "top items at a store" every shard's. The API
/// (which asks them) and the aggregators (which count them) read the same section, and the ranges follow from it and
/// <c>Catalog:MaxItemId</c> alone, so no range is written twice. Section <c>SalesShards</c>.
/// </summary>
public sealed class SalesShardOptions
{
    public const string Section = "SalesShards";

    /// <summary>1: one aggregator counts every item. Each shard's matrix is <c>Catalog:MaxStoreId</c> × its items ×
    /// 8 bytes, held twice while a checkpoint is taken (docs/operations.md, "Sales shards").</summary>
    [Range(1, 64)]
    public int Count { get; set; } = 1;

    /// <summary>The items shard <paramref name="shard"/> (1 to <see cref="Count"/>) owns: 1 to
    /// <paramref name="maxItemId"/> in slices as equal as whole items allow, none empty.</summary>
    public ItemRange ItemsOf(int shard, int maxItemId)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(shard, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(shard, Count);
        ArgumentOutOfRangeException.ThrowIfLessThan(maxItemId, Count);
        return new ItemRange(LastItemOf(shard - 1, maxItemId) + 1, LastItemOf(shard, maxItemId));
    }

    /// <summary>The shard that owns <paramref name="itemId"/> (1 to <paramref name="maxItemId"/>): the first whose
    /// last item is not below it.</summary>
    public int ShardOf(int itemId, int maxItemId)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(itemId, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(itemId, maxItemId);
        return (int)((((long)itemId * Count) + maxItemId - 1) / maxItemId);
    }

    private int LastItemOf(int shard, int maxItemId) => (int)((long)shard * maxItemId / Count);
}
