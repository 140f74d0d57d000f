using System.Globalization;
using System.Text;

namespace Supermarket.LoadTest.Chaos;

/// <summary>The chaos run's table, a row per scenario, in markdown (table.md and the console).</summary>
public static class ChaosTable
{
    private const string Header = """
        | scenario | acknowledged (201) | in MySQL | missing | duplicates | matrix = MySQL | 503 answers | other non-201 | given up | longest without a 201 | restart → working | max latency | sales questions unanswered | result |
        |---|---|---|---|---|---|---|---|---|---|---|---|---|---|
        """;

    public static string Write(IEnumerable<ScenarioOutcome> outcomes)
    {
        var table = new StringBuilder(Header).AppendLine();
        foreach (var outcome in outcomes)
        {
            table.AppendLine(Row(outcome));
        }

        return table.ToString();
    }

    public static string Row(ScenarioOutcome outcome)
    {
        var verdict = outcome.Passed ? "passed"
            : outcome.AnswerWentBack is { } back ? $"**FAILED**: an answer went back ({back})"
            : outcome.QuestionsUnanswered is { } unanswered ? $"**FAILED**: {unanswered}"
            : "**FAILED**";
        if (outcome.FailedBefore is { } failure)
        {
            return $"| {outcome.Scenario} | {failure}, see {outcome.Day.Log} ||||||||||| {Unanswered(outcome)} | {verdict} |";
        }

        if (outcome.Day.Result is not { Retries: { } retries } result)
        {
            return $"| {outcome.Scenario} | the day ended without a result (exit code {outcome.Day.ExitCode}), see {outcome.Day.Log} ||||||||||| {Unanswered(outcome)} | {verdict} |";
        }

        var matches = result.AnswersMatchMySql switch { true => "yes", false => "no", null => "not checked" };
        var recovery = outcome.Recovery is { } took ? Invariant($"{took.TotalSeconds:F1} s") : "not recovered";
        return Invariant($"| {outcome.Scenario} | {retries.Acknowledged} | {retries.Stored} | {retries.Missing} | {retries.Unexpected} | {matches} | ")
            + Invariant($"{result.Answers503} | {retries.AnswersOther} | {retries.GivenUp} | {retries.LongestWithout201Seconds:F1} s | {recovery} | {result.MaxMs:F0} ms | ")
            + $"{Unanswered(outcome)} | {verdict} |";
    }

    /// <summary>The day's sales questions that got no answer, of those asked, by status: "0 of 8123", "3 of 812 (503 × 3)".</summary>
    private static string Unanswered(ScenarioOutcome outcome) => outcome.Questions is not { } asked ? "not watched"
        : asked.UnansweredCount == 0 ? Invariant($"0 of {asked.Answered}")
        : Invariant($"{asked.UnansweredCount} of {asked.Answered + asked.UnansweredCount} ({asked.DescribeUnanswered()})");

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
