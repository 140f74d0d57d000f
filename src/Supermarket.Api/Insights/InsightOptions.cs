using System.ComponentModel.DataAnnotations;

namespace Supermarket.Api.Insights;

/// <summary>How the API asks the Sales aggregator. Section <c>Insights</c>.</summary>
public sealed class InsightOptions
{
    public const string Section = "Insights";

    /// <summary>How long a GET waits for the Sales aggregator before it answers 504.</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:01:00")]
    public TimeSpan QueryTimeout { get; set; } = TimeSpan.FromSeconds(2);

    [Range(1, 100)]
    public int TopItemsCount { get; set; } = 10;

    [Range(1, 100)]
    public int TopStoresCount { get; set; } = 5;
}
