using System.Diagnostics;
using System.Text.RegularExpressions;

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
public sealed partial class ChaosRun(ChaosOptions options, IFaults faults, IChaosDays days, TextWriter console, ISalesAnswers? answers = null)
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
                WriteTail(outcome.Day.Log);
                await SaveSystemLogsAsync(outcome, cancellationToken);
            }

            outcomes.Add(outcome);
        }

        return (outcomes.All(outcome => outcome.Passed) ? 0 : 1, ChaosTable.Write(outcomes));
    }

    /// <summary>Lines of a failed day's log shown on the console: CI keeps the console, not the logs.</summary>
    public const int FailedLogLines = 40;

    /// <summary>The end of a failed day's log, where the load test says why it failed (or the exception that ended it).</summary>
    private void WriteTail(string log)
    {
        if (!File.Exists(log))
        {
            return;
        }

        console.WriteLine($"  the last {FailedLogLines} lines of {log}:");
        foreach (var line in File.ReadLines(log).TakeLast(FailedLogLines))
        {
            console.WriteLine($"  | {line}");
        }
    }

    /// <summary>What every part printed, kept beside a failed day's log as <c>scenario-system.log</c>; its last
    /// warnings and errors shown on the console.</summary>
    private async Task SaveSystemLogsAsync(ScenarioOutcome outcome, CancellationToken cancellationToken)
    {
        if (!File.Exists(outcome.Day.Log))
        {
            return;
        }

        string logs;
        try
        {
            logs = await faults.SystemLogsAsync(cancellationToken);
        }
        catch (Exception exception) when (exception is InvalidOperationException or TimeoutException or IOException)
        {
            console.WriteLine($"  the system's logs could not be read: {exception.Message}");
            return;
        }

        var lines = Colours().Replace(logs, "").Split('\n').Select(line => line.TrimEnd()).ToArray();
        var path = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(outcome.Day.Log))!, $"{outcome.Scenario}-system.log");
        await File.WriteAllLinesAsync(path, lines, cancellationToken);
        var noteworthy = WarningsAndErrors(lines).TakeLast(FailedLogLines).ToList();
        console.WriteLine($"  the system's logs: {path}; their last {noteworthy.Count} lines of warnings and errors:");
        foreach (var line in noteworthy)
        {
            console.WriteLine($"  | {line}");
        }
    }

    /// <summary>Each line written as a warning or an error, with the indented lines that carry on its message (.NET's
    /// console logger writes the category on one line and the message on the next).</summary>
    private static IEnumerable<string> WarningsAndErrors(IReadOnlyList<string> lines)
    {
        for (var index = 0; index < lines.Count; index++)
        {
            if (!WarningOrError().IsMatch(lines[index]))
            {
                continue;
            }

            yield return lines[index];
            while (index + 1 < lines.Count && Continuation().IsMatch(lines[index + 1]))
            {
                yield return lines[++index];
            }
        }
    }

    /// <summary>A line .NET's console logger (warn:, fail:, crit:), RabbitMQ ([warning], [error]) or MariaDB
    /// ([Warning], [ERROR]) wrote as a warning or an error.</summary>
    [GeneratedRegex(@"\b(warn|warning|fail|error|crit|critical)\b", RegexOptions.IgnoreCase)]
    private static partial Regex WarningOrError();

    /// <summary>A line of <c>aspire logs --timestamps</c> (time, [resource]) whose text is indented.</summary>
    [GeneratedRegex(@"^\S+ \[[^\]]+\] {2,}\S")]
    private static partial Regex Continuation();

    /// <summary>The terminal colours the Aspire CLI writes even into a pipe.</summary>
    [GeneratedRegex(@"\x1B\[[0-9;]*[A-Za-z]")]
    private static partial Regex Colours();

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
            var first = await days.RunAsync($"{scenario.Name}-first", arguments, cancellationToken);
            if (first.ExitCode != 0)
            {
                return new ScenarioOutcome(scenario.Name, first, Recovery: null, FailedBefore: "the first pass failed");
            }
        }

        var day = days.RunAsync(scenario.Name, arguments, cancellationToken);
        // Watched until the day has ended and the repaired part works again: a rebuild that outlasts the day's
        // purchases is still asked during, to its end.
        var probed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var watch = answers is null ? null : new AnswerWatch(answers, options.Stores);
        var wentBack = watch?.WatchAsync(Task.WhenAll(day, probed.Task), cancellationToken) ?? Task.FromResult<string?>(null);
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
