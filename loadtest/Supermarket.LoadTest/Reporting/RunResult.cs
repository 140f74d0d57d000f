using System.Text.Json;
using System.Text.Json.Serialization;
using Supermarket.LoadTest.Thresholds;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// What a run measured and found, as <c>summary.json</c> in its reports folder: what the chaos run's table and the compare
/// command read instead of the console text. Seconds are from the first POST unless named "after the last
/// response"; a null means "not within the verification's timeout" or "not measured" (--no-verify).
/// The request rate and the latencies leave out the warm-up; the counts of requests are the whole run's.
/// </summary>
public sealed record RunResult
{
    public static readonly JsonSerializerOptions Json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower,
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.Never,
        Converters = { new JsonStringEnumConverter(JsonNamingPolicy.SnakeCaseLower) },
    };

    public string Label { get; init; } = "";
    public string Simulation { get; init; } = "";
    public DateTimeOffset StartedAt { get; init; }
    public int Stores { get; init; }
    public long Successful { get; init; }
    public long Unsuccessful { get; init; }
    public double WallSeconds { get; init; }
    public double WarmUpSeconds { get; init; }
    public double RequestsPerSecond { get; init; }
    public double MeanMs { get; init; }
    public double MedianMs { get; init; }
    /// <summary>Null in summaries written before it was measured.</summary>
    public double? P95Ms { get; init; }
    public double P99Ms { get; init; }
    public double MaxMs { get; init; }

    [JsonPropertyName("answers_503")]
    public long Answers503 { get; init; }

    public long MaxQueuedForWriter { get; init; }
    public double? StoredAfterLastResponseSeconds { get; init; }
    public double? CountedAfterLastResponseSeconds { get; init; }
    public bool? Verified { get; init; }

    [JsonPropertyName("answers_match_mysql")]
    public bool? AnswersMatchMySql { get; init; }

    public RetryFigures? Retries { get; init; }

    public IReadOnlyList<QuestionFigures> Questions { get; init; } = [];

    /// <summary>The broker messages the (first) API published during the run; null where its /metrics did not answer.</summary>
    public PublishedMessages? Published { get; init; }

    /// <summary>The verification's checks, in the order they ran.</summary>
    public IReadOnlyList<VerificationCheck> Checks { get; init; } = [];

    public IReadOnlyList<ThresholdResult> Thresholds { get; init; } = [];

    /// <summary>The CPU the system's processes used on this machine; null in summaries written before it was
    /// measured.</summary>
    public CpuFigures? Cpu { get; init; }

    /// <summary>MariaDB's buffer pool over the day (first POST to the last purchase stored and counted); null
    /// without a database (--no-verify) and in summaries written before it was measured.</summary>
    public BufferPoolPages? DayBufferPool { get; init; }

    /// <summary>The purchases the database held before the run (the sales ledger's count): where the run stands on
    /// the curve over history that <see cref="RunComparison.Curve"/> draws. Null without a database (--no-verify) and
    /// in summaries written before it was recorded.</summary>
    public long? PurchasesStoredBefore { get; init; }

    /// <summary>The highest of one figure (a percentile) over the questions of these kinds asked while the day ran;
    /// null when none was asked.</summary>
    public double? SlowestQuestions(Func<QuestionFigures, double> figure, params string[] kinds) =>
        Questions.Where(question => kinds.Contains(question.Question)).Select(question => (double?)figure(question)).Max();

    /// <summary>The CPU a process (a <see cref="ProcessCpu"/> name) used over the day, per purchase with a 201.</summary>
    public double? DayCpuMicrosecondsPerPurchase(string process) =>
        Cpu?.Day.TryGetValue(process, out var seconds) == true && Successful > 0 ? seconds * 1e6 / Successful : null;

    /// <summary>Pages of MariaDB's buffer pool a purchase with a 201 over the day, as <paramref name="pages"/> picks
    /// them.</summary>
    public double? DayPagesPerPurchase(Func<BufferPoolPages, long> pages) =>
        DayBufferPool is { } pool && Successful > 0 ? (double)pages(pool) / Successful : null;

    /// <summary>First POST until the last purchase was stored in MySQL and counted in the matrix: what a store
    /// manager waits for.</summary>
    public double? EndToEndSeconds => WallSeconds + CountedAfterLastResponseSeconds;

    public double? EndToEndPurchasesPerSecond => EndToEndSeconds is > 0 and { } seconds ? Successful / seconds : null;

    public void Write(string path) => File.WriteAllText(path, JsonSerializer.Serialize(this, Json));

    public static RunResult Read(string path) =>
        JsonSerializer.Deserialize<RunResult>(File.ReadAllText(path), Json) ?? throw new InvalidDataException($"{path} holds no run.");
}

/// <summary>CPU seconds by process (<see cref="ProcessCpu"/>): over the day, from the first POST until every purchase
/// was stored and counted (the sends' own end without a verification), and over the verification's checks after it,
/// which read the whole history and so grow with it.</summary>
public sealed record CpuFigures(IReadOnlyDictionary<string, double> Day, IReadOnlyDictionary<string, double> Verification)
{
    public static string Describe(IReadOnlyDictionary<string, double> seconds) => seconds.Count == 0
        ? "not measured (no /proc)"
        : string.Join(", ", seconds.Select(used => string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{used.Key} {used.Value:F1}")));
}

/// <summary>A retrying run's id checks and what the stores went through (the chaos run's table).</summary>
public sealed record RetryFigures(
    long Acknowledged, long Stored, long Missing, long Unexpected, long GivenUp,
    long AnswersOther,
    [property: JsonPropertyName("longest_without_201_seconds")] double LongestWithout201Seconds);

/// <summary>Questions asked while the day ran (--history-queries-per-second: first pages of purchase history;
/// --sales-queries-per-second: the sales questions), timed from the request until the whole answer was read; failures
/// are answers other than 200.</summary>
public sealed record QuestionFigures(string Question, int Asked, int Failures, double P50Ms, double P99Ms, double P999Ms, double MaxMs);

/// <summary>One check of the verification and whether it passed.</summary>
public sealed record VerificationCheck(string Check, bool Passed);
