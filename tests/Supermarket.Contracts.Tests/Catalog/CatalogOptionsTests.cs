using System.ComponentModel.DataAnnotations;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Contracts.Tests.Catalog;

/// <summary>The catalog's ranges are refused at start when the largest purchase they allow could not be stored: its
/// lines are one TEXT column (65,535 bytes), and a purchase MySQL refuses after a 201 would wait for a person.</summary>
public sealed class CatalogOptionsTests
{
    [Fact]
    public void The_defaults_fit_storage()
    {
        Assert.Empty(Validate(new CatalogOptions()));
    }

    [Fact]
    public void Ranges_whose_largest_purchase_overflows_its_column_are_refused_with_the_figure()
    {
        var catalog = new CatalogOptions { MaxItemsPerPurchase = 10_000, MaxItemId = 10_000_000, MaxQuantity = 1_000_000 };

        var refused = Assert.Single(Validate(catalog));

        Assert.Contains("65535", refused.ErrorMessage, StringComparison.Ordinal);
        Assert.Contains(nameof(CatalogOptions.MaxItemsPerPurchase), refused.MemberNames);
    }

    [Fact]
    public void The_largest_purchase_the_ranges_allow_is_what_storage_holds()
    {
        var catalog = new CatalogOptions { MaxItemsPerPurchase = 3, MaxItemId = 100, MaxQuantity = 7 };

        // [[100,7],[100,7],[100,7]]
        Assert.Equal(25, catalog.LargestStoredLines);
    }

    private static List<ValidationResult> Validate(CatalogOptions catalog)
    {
        var results = new List<ValidationResult>();
        Validator.TryValidateObject(catalog, new ValidationContext(catalog), results, validateAllProperties: true);
        return results;
    }
}
