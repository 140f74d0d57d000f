using System.Diagnostics;

namespace Supermarket.LoadTest.Chaos;

/// <summary>
/// The chaos run: a day of load per scenario, with its fault injected after <see cref="ChaosOptions.FaultAfter"/>
/// while the stores retry what it interrupts (bounded, honouring Retry-After, with Idempotency-Keys). After each day
/// the load test verifies that every purchase that got a 201 is in MySQL, none is stored twice, and the aggregator's
/// answers equal MySQL's sums; while it runs, <paramref name="answers"/> (when given) are watched so that none goes
/// back (<see cref="AnswerWatch"/>). One table row per scenario; a loss, a duplicate, a mismatch, an answer that went
/// back, a question unanswered in a scenario that promises every answer, a purchase given up or a part that did not
/// recover fails the run (exit code 1).
/// </summary>
public sealed class ChaosRun(ChaosOptions options, IFaults faults, IChaosDays days, TextWriter console, ISalesAnswers? answers = null)
{
    /// <summary>How often a repaired part is probed.</summary>
    public static readonly TimeSpan ProbeInterval = TimeSpan.FromMilliseconds(500);

    public async Task<(int ExitCode, string Table)> RunAsync(CancellationToken cancellationToken)
    {
        var warnings = new List<string>();
        var scenarios = ChaosScenario.Choose(options, warnings);
        warnings.ForEach(warning => console.WriteLine($"warning: {warning}"));
        var outcomes = new List<ScenarioOutcome>();
        for (var index = 0; index < scenarios.Count; index++)
        {
            var outcome = await RunAsync(scenarios[index], index, cancellationToken);
            console.WriteLine($"{outcome.Scenario}: {(outcome.Passed ? "passed" : $"FAILED; see {outcome.Day.Log}")}");
            if (!outcome.Passed)
            {
                await ShowEvidenceAsync(outcome, cancellationToken);
            }

            outcomes.Add(outcome);
        }

        return (outcomes.All(outcome => outcome.Passed) ? 0 : 1, ChaosTable.Write(outcomes));
    }

    /// <summary>Lines of a failed day's log shown on the console: CI keeps the console, not the logs.</summary>
    public const int FailedLogLines = 40;

    /// <summary>A failed day's evidence on the console: the end of its log, where the load test says why it failed
    /// (or the exception that ended it), and what every part printed, kept beside it as <c>scenario-system.log</c>,
    /// with its last warnings and errors shown.</summary>
    private async Task ShowEvidenceAsync(ScenarioOutcome outcome, CancellationToken cancellationToken)
    {
        var log = outcome.Day.Log;
        if (!File.Exists(log))
        {
            return;
        }

        try
        {
            console.WriteLine($"  the last {FailedLogLines} lines of {log}:");
            foreach (var line in File.ReadLines(log).TakeLast(FailedLogLines))
            {
                console.WriteLine($"  | {line}");
            }

            var logs = await faults.SystemLogsAsync(cancellationToken);
            var path = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(log))!, $"{outcome.Scenario}-system.log");
            await File.WriteAllLinesAsync(path, SystemLogLines.InTimeOrder(logs), cancellationToken);
            var noteworthy = SystemLogLines.WarningsAndErrors(logs, FailedLogLines);
            console.WriteLine($"  the system's logs: {path}; their last {noteworthy.Count} lines of warnings and errors:");
            foreach (var line in noteworthy)
            {
                console.WriteLine($"  | {line}");
            }
        }
        catch (Exception exception) when (exception is InvalidOperationException or TimeoutException or IOException or UnauthorizedAccessException)
        {
            console.WriteLine($"  the evidence could not be gathered: {exception.Message}");
        }
    }

    private async Task<ScenarioOutcome> RunAsync(ChaosScenario scenario, int index, CancellationToken cancellationToken)
    {
        var arguments = scenario.DayArguments(options, index);
        console.WriteLine($"scenario {scenario.Name} ({scenario.Description}): {options.Stores} stores x {options.PurchasesPerHour} purchases/hour; "
            + $"fault after {options.FaultAfter.TotalSeconds:F0} s{(options.InContainers ? "" : $" for {scenario.FaultFor(options).TotalSeconds:F0} s")}");
        try
        {
            await faults.PrepareAsync(scenario, cancellationToken);
        }
        catch (InvalidOperationException failure)
        {
            console.WriteLine(failure.Message);
            return new ScenarioOutcome(scenario.Name, new DayOutcome(ExitCode: -1, Result: null, Log: "faults.log"), Recovery: null, FailedBefore: "its preparation failed");
        }

        if (scenario.Name == ChaosScenario.LateRetry)
        {
            var first = await days.RunAsync($"{scenario.Name}-first", arguments, () => { }, cancellationToken);
            if (first.ExitCode != 0)
            {
                return new ScenarioOutcome(scenario.Name, first, Recovery: null, FailedBefore: "the first pass failed");
            }
        }

        // The fault comes after FaultAfter of load, timed from the load's beginning: a day's process may take seconds
        // to get there (in containers it first starts MariaDB's accounts and the schema's migration, which a MariaDB
        // restart would otherwise hit instead of the day).
        var loadBegun = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var day = days.RunAsync(scenario.Name, arguments, () => loadBegun.TrySetResult(), cancellationToken);
        // Watched until the day has ended and the repaired part works again: a rebuild that outlasts the day's
        // purchases is still asked during, to its end.
        var probed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var watch = answers is null ? null : new AnswerWatch(answers, options.Stores);
        var wentBack = watch?.WatchAsync(Task.WhenAll(day, probed.Task), cancellationToken) ?? Task.FromResult<string?>(null);
        await Task.WhenAny(day, loadBegun.Task);
        await Task.WhenAny(day, Task.Delay(options.FaultAfter, cancellationToken));
        if (day.IsCompleted)
        {
            console.WriteLine("warning: the day ended before the fault; use more purchases per hour");
        }

        try
        {
            await faults.InjectAsync(scenario, cancellationToken);
            if (!options.InContainers)
            {
                await Task.Delay(scenario.FaultFor(options), cancellationToken);
                await faults.RepairAsync(scenario, cancellationToken);
            }
        }
        catch (InvalidOperationException failure)
        {
            // The day still runs to its end, so it leaves nothing behind and its figures say what the fault did.
            console.WriteLine(failure.Message);
            probed.TrySetResult();
            await wentBack;
            return new ScenarioOutcome(scenario.Name, await day, Recovery: null, FailedBefore: "the fault or its repair failed",
                Questions: watch?.Asked, EveryQuestionAnswered: scenario.EveryQuestionAnswered);
        }

        var recovery = await RecoveryAsync(scenario, cancellationToken);
        probed.TrySetResult();
        if (recovery is null)
        {
            console.WriteLine($"{scenario.Name} did not recover within {options.RecoveryLimit.TotalSeconds:F0} s");
        }

        var outcome = new ScenarioOutcome(scenario.Name, await day, recovery, AnswerWentBack: await wentBack,
            Questions: watch?.Asked, EveryQuestionAnswered: scenario.EveryQuestionAnswered);
        if (outcome.Questions is { } asked)
        {
            console.WriteLine($"{scenario.Name}: {asked.Answered} sales answers watched (questions unanswered: {asked.DescribeUnanswered()}"
                + (asked.UnansweredCount > 0 ? $", asked {asked.DescribeWhen()} into the day, the fault at {options.FaultAfter.TotalSeconds:F0} s)" : ")")
                + (outcome.AnswerWentBack is { } back ? $"; an answer went back: {back}" : ", none went back"));
        }

        return outcome;
    }

    /// <summary>From the repair (in containers, the fault) until the probe passes; null past the limit.</summary>
    private async Task<TimeSpan?> RecoveryAsync(ChaosScenario scenario, CancellationToken cancellationToken)
    {
        var since = Stopwatch.StartNew();
        while (!await faults.RecoveredAsync(scenario, cancellationToken))
        {
            if (since.Elapsed >= options.RecoveryLimit)
            {
                return null;
            }

            await Task.Delay(ProbeInterval, cancellationToken);
        }

        return since.Elapsed;
    }
}
