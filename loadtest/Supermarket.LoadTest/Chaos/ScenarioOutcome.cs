using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Chaos;

/// <summary>What one scenario's day found, how long the repaired part took to work again (null: not within
/// <see cref="ChaosOptions.RecoveryLimit"/>), and the first sales answer that went back during the day, if one did
/// (<see cref="AnswerWatch"/>).</summary>
public sealed record ScenarioOutcome(string Scenario, DayOutcome Day, TimeSpan? Recovery, string? FailedBefore = null, string? AnswerWentBack = null)
{
    /// <summary>The day passed its verification with nothing given up (exit code 0), no answer went back, and the part
    /// recovered.</summary>
    public bool Passed => FailedBefore is null && AnswerWentBack is null && Day.ExitCode == 0 && Day.Result?.Retries is not null && Recovery is not null;
}
