using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.SalesCounting;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>
/// Refuses, at start and with the memory it would need, a catalog whose matrix this process cannot hold: the matrix
/// and the copy a checkpoint is saved from are each <see cref="SalesMatrix.BytesFor"/>. Bounds that pass the catalog's
/// own ranges (10 million items × 512 stores) would otherwise make the matrix's constructor throw at every start.
/// </summary>
public sealed class CatalogFitsTheMatrix(long availableBytes) : IValidateOptions<CatalogOptions>
{
    /// <summary>Against what the garbage collector says this process may use (the machine's memory, or the
    /// container's limit).</summary>
    public CatalogFitsTheMatrix()
        : this(GC.GetGCMemoryInfo().TotalAvailableMemoryBytes)
    {
    }

    public ValidateOptionsResult Validate(string? name, CatalogOptions catalog)
    {
        var cells = SalesMatrix.CellsFor(catalog.MaxItemId, catalog.MaxStoreId);
        var needed = 2 * SalesMatrix.BytesFor(catalog.MaxItemId, catalog.MaxStoreId);
        if (cells > Array.MaxLength || needed > availableBytes)
        {
            return ValidateOptionsResult.Fail(
                $"Catalog:MaxItemId {catalog.MaxItemId:N0} × Catalog:MaxStoreId {catalog.MaxStoreId:N0}: the sales matrix and its checkpoint copy need {Gib(needed)} "
                + $"in {cells:N0} counters; this process may use {Gib(availableBytes)} and one array holds at most {Array.MaxLength:N0} counters.");
        }

        return ValidateOptionsResult.Success;
    }

    private static string Gib(long bytes) => FormattableString.Invariant($"{bytes / (1024.0 * 1024 * 1024):F1} GiB");
}
