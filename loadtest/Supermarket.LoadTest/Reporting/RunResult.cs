using System.Text.Json;
using System.Text.Json.Serialization;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// What a run measured and found, as <c>summary.json</c> in its reports folder: what scripts read (measure.sh's rows,
/// chaos.sh's table) instead of the console text. Seconds are from the first POST unless named "after the last
/// response"; a null means "not within the verification's timeout" or "not measured" (--no-verify).
/// </summary>
public sealed record RunResult(
    int Stores,
    long Successful,
    long Unsuccessful,
    double WallSeconds,
    double RequestsPerSecond,
    double MeanMs,
    double MedianMs,
    double P99Ms,
    double MaxMs,
    [property: JsonPropertyName("answers_503")] long Answers503,
    long MaxQueuedForWriter,
    double? StoredAfterLastResponseSeconds,
    double? CountedAfterLastResponseSeconds,
    bool? Verified,
    [property: JsonPropertyName("answers_match_mysql")] bool? AnswersMatchMySql,
    RetryFigures? Retries,
    IReadOnlyList<HistoryQueryFigures> HistoryQueries)
{
    private static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.Never,
    };

    /// <summary>First POST until the last purchase was stored in MySQL and counted in the matrix: what a store
    /// manager waits for.</summary>
    public double? EndToEndSeconds => WallSeconds + CountedAfterLastResponseSeconds;

    public double? EndToEndPurchasesPerSecond => EndToEndSeconds is > 0 and { } seconds ? Successful / seconds : null;

    public void Write(string path) => File.WriteAllText(path, JsonSerializer.Serialize(this, Json));
}

/// <summary>A retrying run's id checks and what the stores went through (the chaos run's table).</summary>
public sealed record RetryFigures(
    long Acknowledged, long Stored, long Missing, long Unexpected, long GivenUp,
    long AnswersOther,
    [property: JsonPropertyName("longest_without_201_seconds")] double LongestWithout201Seconds);

/// <summary>Purchase history questions asked while the day ran (--history-queries-per-second): first pages, timed
/// from the request until the whole answer was read; failures are answers other than 200.</summary>
public sealed record HistoryQueryFigures(string Question, int Asked, int Failures, double P50Ms, double P99Ms, double MaxMs);
