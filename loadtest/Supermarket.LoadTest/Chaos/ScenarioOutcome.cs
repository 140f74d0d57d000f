using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Chaos;

/// <summary>What one scenario's day found, and how long the repaired part took to work again (null: not within
/// <see cref="ChaosOptions.RecoveryLimit"/>).</summary>
public sealed record ScenarioOutcome(string Scenario, DayOutcome Day, TimeSpan? Recovery, string? FailedBefore = null)
{
    /// <summary>The day passed its verification with nothing given up (exit code 0), and the part recovered.</summary>
    public bool Passed => FailedBefore is null && Day.ExitCode == 0 && Day.Result?.Retries is not null && Recovery is not null;
}
