using System.ComponentModel.DataAnnotations;

namespace Supermarket.Contracts.Catalog;

/// <summary>Ranges whose largest purchase overflows <see cref="StoredLinesMaxBytes"/> (<c>purchases.items</c>, a TEXT)
/// are refused at start, not by MySQL after a 201.</summary>
public sealed class CatalogOptions : IValidatableObject
{
    public const string Section = "Catalog";

    public const int StoredLinesMaxBytes = 65_535;

    [Range(1, 100_000)]
    public int MaxStoreId { get; set; } = 512;

    [Range(1, 10_000_000)]
    public int MaxItemId { get; set; } = 100_000;

    [Range(1, 10_000)]
    public int MaxItemsPerPurchase { get; set; } = 100;

    [Range(1, 1_000_000)]
    public int MaxQuantity { get; set; } = 10_000;

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
