using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Chaos;

/// <summary>What one scenario's day found, how long the repaired part took to work again (null: not within
/// <see cref="ChaosOptions.RecoveryLimit"/>), the first sales answer that went back during the day, if one did, and
/// what the day's sales questions got (<see cref="AnswerWatch"/>; null: not watched, as in containers).</summary>
/// <param name="EveryQuestionAnswered">The scenario's promise (<see cref="ChaosScenario.EveryQuestionAnswered"/>):
/// then a question left unanswered, or a day not watched, fails it.</param>
public sealed record ScenarioOutcome(string Scenario, DayOutcome Day, TimeSpan? Recovery, string? FailedBefore = null, string? AnswerWentBack = null,
    WatchedQuestions? Questions = null, bool EveryQuestionAnswered = false)
{
    /// <summary>Why the scenario's promise of an answer to every question was broken, in words; null when it was kept
    /// or the scenario makes none.</summary>
    public string? QuestionsUnanswered => !EveryQuestionAnswered ? null
        : Questions is not { } asked ? "its sales questions were not watched"
        : asked.UnansweredCount > 0 ? $"{asked.UnansweredCount} of {asked.Answered + asked.UnansweredCount} sales questions unanswered ({asked.DescribeUnanswered()})"
        : null;

    /// <summary>The day passed its verification with nothing given up (exit code 0), no answer went back, every
    /// question was answered where the scenario promises it, and the part recovered.</summary>
    public bool Passed => FailedBefore is null && AnswerWentBack is null && QuestionsUnanswered is null
        && Day.ExitCode == 0 && Day.Result?.Retries is not null && Recovery is not null;
}
