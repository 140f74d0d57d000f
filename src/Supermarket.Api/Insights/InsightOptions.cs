using System.ComponentModel.DataAnnotations;

namespace Supermarket.Api.Insights;

/// <summary>How the API asks the Sales aggregator. Section <c>Insights</c>.</summary>
public sealed class InsightOptions
{
    public const string Section = "Insights";

    [Range(typeof(TimeSpan), "00:00:00.100", "00:01:00")]
    public TimeSpan QueryTimeout { get; set; } = TimeSpan.FromSeconds(2);

    [Range(1, 100)]
    public int TopItemsCount { get; set; } = 10;

    /// <summary>Those asked while this many are on their way go together (<see cref="ShardQuestions"/>).</summary>
    [Range(1, 64)]
    public int QuestionMessagesInFlight { get; set; } = 4;

    [Range(1, 1000)]
    public int MaxQuestionsPerMessage { get; set; } = 100;

    [Range(1, 100)]
    public int TopStoresCount { get; set; } = 5;
}
