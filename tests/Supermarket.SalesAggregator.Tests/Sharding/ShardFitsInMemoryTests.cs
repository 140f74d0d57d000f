using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.SalesAggregator.Questions;
using Supermarket.SalesAggregator.Sharding;

namespace Supermarket.SalesAggregator.Tests.Sharding;

/// <summary>The aggregator refuses, at start and saying what it would need, a shard its matrix cannot hold.</summary>
public sealed class ShardFitsInMemoryTests
{
    private const long TwentyFourGib = 24L * 1024 * 1024 * 1024;

    [Fact]
    public void The_class_defaults_fit_the_machine_kind_this_runs_on()
    {
        Assert.True(Validate(new CatalogOptions(), shards: 1, shard: 1, TwentyFourGib).Succeeded);
    }

    [Fact]
    public void Bounds_within_the_catalogs_ranges_that_no_array_holds_are_refused_with_the_memory_they_need()
    {
        var result = Validate(new CatalogOptions { MaxItemId = 10_000_000, MaxStoreId = 512 }, shards: 1, shard: 1, TwentyFourGib);

        Assert.True(result.Failed);
        Assert.Contains("Items 1-10000000 (shard 1 of 1, Catalog:MaxItemId 10,000,000)", result.FailureMessage, StringComparison.Ordinal);
        Assert.Contains("need 85.8 GiB", result.FailureMessage, StringComparison.Ordinal);
    }

    [Fact]
    public void A_matrix_and_its_copy_larger_than_this_process_may_use_are_refused()
    {
        var oneGib = 1024L * 1024 * 1024;
        Assert.False(Validate(new CatalogOptions { MaxItemId = 200_000, MaxStoreId = 512 }, shards: 1, shard: 1, oneGib).Succeeded);
        Assert.True(Validate(new CatalogOptions { MaxItemId = 50_000, MaxStoreId = 512 }, shards: 1, shard: 1, oneGib).Succeeded);
    }

    [Fact]
    public void A_national_chain_that_no_one_process_holds_fits_in_shards()
    {
        // 10,000 stores × 120,000 items: 9.6 GB a copy, 19.2 GB with the checkpoint's; a quarter of it per shard.
        var nation = new CatalogOptions { MaxItemId = 120_000, MaxStoreId = 10_000 };
        var sixteenGib = 16L * 1024 * 1024 * 1024;

        var whole = Validate(nation, shards: 1, shard: 1, sixteenGib);
        Assert.True(whole.Failed);
        Assert.Contains("need 20.1 GiB", whole.FailureMessage, StringComparison.Ordinal);
        Assert.All(Enumerable.Range(1, 4), shard => Assert.True(Validate(nation, shards: 4, shard, sixteenGib).Succeeded));
    }

    [Fact]
    public void A_shard_beyond_the_count_is_refused()
    {
        var result = Validate(new CatalogOptions(), shards: 2, shard: 3, TwentyFourGib);

        Assert.True(result.Failed);
        Assert.Contains("Aggregator:Shard 3 of SalesShards:Count 2", result.FailureMessage, StringComparison.Ordinal);
    }

    private static Microsoft.Extensions.Options.ValidateOptionsResult Validate(CatalogOptions catalog, int shards, int shard, long availableBytes) =>
        new ShardFitsInMemory(catalog, new SalesShardOptions { Count = shards }, availableBytes).Validate(null, new AggregatorOptions { Shard = shard });
}
