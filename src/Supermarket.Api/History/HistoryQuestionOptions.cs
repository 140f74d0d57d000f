using System.ComponentModel.DataAnnotations;
using Supermarket.Contracts.History;

namespace Supermarket.Api.History;

/// <summary>How the API asks the Purchases writer for purchase history. Section <c>HistoryQuestions</c>.</summary>
public sealed class HistoryQuestionOptions
{
    public const string Section = "HistoryQuestions";

    [Range(typeof(TimeSpan), "00:00:00.100", "00:01:00")]
    public TimeSpan QueryTimeout { get; set; } = TimeSpan.FromSeconds(2);

    [Range(1, 100_000)]
    public int ReadsPerMinute { get; set; } = 600;

    [Range(1, PurchaseHistoryPage.MaxPageSize)]
    public int PageSize { get; set; } = 50;
}
