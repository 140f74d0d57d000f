using System.ComponentModel.DataAnnotations;

namespace Supermarket.PurchasesWriter.History;

/// <summary>How the writer answers purchase history questions. Section <c>HistoryQueries</c>.</summary>
public sealed class HistoryQueryOptions
{
    public const string Section = "HistoryQueries";

    /// <summary>Questions answered at once; each holds a connection beside the writer's batches and claims.</summary>
    [Range(1, 64)]
    public int ConcurrentQueries { get; set; } = 2;
}
