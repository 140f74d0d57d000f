using System.ComponentModel.DataAnnotations;

namespace Supermarket.Contracts.Catalog;

/// <summary>The chain's ranges: which store and item ids exist, and how large a purchase may be. Section <c>Catalog</c>.
/// The API validates against them and the Sales aggregator sizes its matrix from them, so both read the same section.
/// Ranges whose largest purchase storage could not hold are refused at start: a purchase MySQL refuses after its 201
/// would wait for a person.</summary>
public sealed class CatalogOptions : IValidatableObject
{
    public const string Section = "Catalog";

    /// <summary>What the column holding a purchase's lines takes (<c>purchases.items</c>, TEXT: migration 0002).</summary>
    public const int StoredLinesMaxBytes = 65_535;

    [Range(1, 100_000)]
    public int MaxStoreId { get; set; } = 512;

    [Range(1, 10_000_000)]
    public int MaxItemId { get; set; } = 100_000;

    [Range(1, 10_000)]
    public int MaxItemsPerPurchase { get; set; } = 100;

    [Range(1, 1_000_000)]
    public int MaxQuantity { get; set; } = 10_000;

    /// <summary>The stored lines of the largest purchase these ranges allow: a JSON array of [item, quantity] pairs
    /// (PurchaseRows.Items, as the writer stores them), every line of the largest item id and quantity.</summary>
    public int LargestStoredLines =>
        2 + (MaxItemsPerPurchase * (4 + Digits(MaxItemId) + Digits(MaxQuantity))) - 1;

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (LargestStoredLines > StoredLinesMaxBytes)
        {
            yield return new ValidationResult(
                $"A purchase of Catalog:MaxItemsPerPurchase ({MaxItemsPerPurchase}) lines of item {MaxItemId} × {MaxQuantity} is stored as {LargestStoredLines} bytes of lines, more than storage holds ({StoredLinesMaxBytes}).",
                [nameof(MaxItemsPerPurchase)]);
        }
    }

    private static int Digits(int value) => value.ToString(System.Globalization.CultureInfo.InvariantCulture).Length;
}
