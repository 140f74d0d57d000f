using System.ComponentModel.DataAnnotations;

namespace Supermarket.Contracts.Catalog;

/// <summary>The chain's ranges: which store and item ids exist, and how large a purchase may be. Section <c>Catalog</c>.
/// The API validates against them and the Sales aggregator sizes its matrix from them, so both read the same section.</summary>
public sealed class CatalogOptions
{
    public const string Section = "Catalog";

    [Range(1, 100_000)]
    public int MaxStoreId { get; set; } = 512;

    [Range(1, 10_000_000)]
    public int MaxItemId { get; set; } = 100_000;

    [Range(1, 10_000)]
    public int MaxItemsPerPurchase { get; set; } = 100;

    [Range(1, 1_000_000)]
    public int MaxQuantity { get; set; } = 10_000;
}
