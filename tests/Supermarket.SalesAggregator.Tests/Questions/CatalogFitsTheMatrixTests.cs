using Supermarket.SalesAggregator.Questions;
using Supermarket.Contracts.Catalog;

namespace Supermarket.SalesAggregator.Tests.Questions;

/// <summary>The aggregator refuses, at start and saying what it would need, a catalog its matrix cannot hold.</summary>
public sealed class CatalogFitsTheMatrixTests
{
    private const long TwentyFourGib = 24L * 1024 * 1024 * 1024;

    [Fact]
    public void The_class_defaults_fit_the_machine_kind_this_runs_on()
    {
        Assert.True(new CatalogFitsTheMatrix(TwentyFourGib).Validate(null, new CatalogOptions()).Succeeded);
    }

    [Fact]
    public void Bounds_within_the_catalogs_ranges_that_no_array_holds_are_refused_with_the_memory_they_need()
    {
        var result = new CatalogFitsTheMatrix(TwentyFourGib).Validate(null, new CatalogOptions { MaxItemId = 10_000_000, MaxStoreId = 512 });

        Assert.True(result.Failed);
        Assert.Contains("Catalog:MaxItemId 10,000,000", result.FailureMessage, StringComparison.Ordinal);
        Assert.Contains("need 85.8 GiB", result.FailureMessage, StringComparison.Ordinal);
    }

    [Fact]
    public void A_matrix_and_its_copy_larger_than_this_process_may_use_are_refused()
    {
        var oneGib = 1024L * 1024 * 1024;
        Assert.False(new CatalogFitsTheMatrix(oneGib).Validate(null, new CatalogOptions { MaxItemId = 200_000, MaxStoreId = 512 }).Succeeded);
        Assert.True(new CatalogFitsTheMatrix(oneGib).Validate(null, new CatalogOptions { MaxItemId = 50_000, MaxStoreId = 512 }).Succeeded);
    }
}
