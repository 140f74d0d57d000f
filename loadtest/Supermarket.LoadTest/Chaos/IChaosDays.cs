using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Chaos;

/// <summary>Runs one day of the load test, its reports in a folder named for it: a process of its own, or the load
/// test's container (<see cref="LoadTestDays"/>); the seam the chaos run's fast tests replace.</summary>
public interface IChaosDays
{
    /// <param name="loadBegins">Called when the day's purchases begin: its process (in containers, its
    /// dependencies too) has started and read what stands before the day.</param>
    Task<DayOutcome> RunAsync(string name, IReadOnlyList<string> arguments, Action loadBegins, CancellationToken cancellationToken);
}

/// <summary>A day's exit code (<see cref="LoadRun"/>'s), what it measured (null when it wrote no summary), and its
/// console output.</summary>
public sealed record DayOutcome(int ExitCode, RunResult? Result, string Log);
