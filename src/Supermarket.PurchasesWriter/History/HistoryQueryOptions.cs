using System.ComponentModel.DataAnnotations;

namespace Supermarket.PurchasesWriter.History;

public sealed class HistoryQueryOptions
{
    public const string Section = "HistoryQueries";

    [Range(1, 64)]
    public int ConcurrentQueries { get; set; } = 2;
}
