using System.Collections.Concurrent;
using Supermarket.LoadTest.Chaos;
using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Tests.Chaos;

/// <summary>The chaos run's order of things and its verdicts, with the faults and the days replaced: what
/// the faults (LocalFaults, ContainerFaults, on the real system) and the load test's processes do is the chaos run's own business in ./test.sh.</summary>
public sealed class ChaosRunTests
{
    private static readonly ChaosOptions Quick = new()
    {
        FaultAfter = TimeSpan.FromMilliseconds(50),
        FaultFor = TimeSpan.FromMilliseconds(50),
        RecoveryLimit = TimeSpan.FromSeconds(2),
    };

    [Fact]
    public async Task The_fault_comes_while_the_day_runs_then_its_repair_then_the_probe_and_a_clean_day_passes()
    {
        var events = new ConcurrentQueue<string>();
        var faults = new ScriptedFaults(events, probesBeforeRecovery: 2);
        var days = new ScriptedDays(events, faults, _ => Day(missing: 0));

        var (exitCode, table) = await new ChaosRun(Quick with { Scenarios = ["writer"] }, faults, days, TextWriter.Null).RunAsync(CancellationToken.None);

        Assert.Equal(0, exitCode);
        Assert.Equal(["prepare writer", "day writer starts", "inject writer", "repair writer", "probe writer", "probe writer", "probe writer", "day writer ends"], events);
        Assert.Contains("| writer | 100 | 100 | 0 | 0 | yes |", table, StringComparison.Ordinal);
        Assert.EndsWith("| passed |", table.TrimEnd(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_fault_waits_for_the_day_s_load_however_long_its_process_takes_to_begin_it()
    {
        // In containers a day's process first starts MariaDB's accounts and the schema's migration: a restart timed
        // from the process's start could hit those instead of the day.
        var events = new ConcurrentQueue<string>();
        var faults = new ScriptedFaults(events);
        var days = new ScriptedDays(events, faults, _ => Day(missing: 0), beforeTheLoad: TimeSpan.FromMilliseconds(500));

        var (exitCode, _) = await new ChaosRun(Quick with { Scenarios = ["writer"] }, faults, days, TextWriter.Null).RunAsync(CancellationToken.None);

        Assert.Equal(0, exitCode);
        Assert.Equal(["prepare writer", "day writer starts", "day writer's load begins", "inject writer", "repair writer", "probe writer", "day writer ends"], events);
    }

    [Fact]
    public async Task A_purchase_missing_after_the_day_fails_the_run()
    {
        var faults = new ScriptedFaults(new());
        var days = new ScriptedDays(new(), faults, _ => Day(missing: 1) with { ExitCode = 1 });

        var (exitCode, table) = await new ChaosRun(Quick with { Scenarios = ["rabbitmq", "mariadb"] }, faults, days, TextWriter.Null)
            .RunAsync(CancellationToken.None);

        Assert.Equal(1, exitCode);
        Assert.Equal(2, table.Split('\n').Count(row => row.Contains("| 1 | 0 | yes |", StringComparison.Ordinal) && row.Contains("**FAILED**", StringComparison.Ordinal)));
    }

    [Fact]
    public async Task A_failed_day_shows_the_end_of_its_log_and_the_system_s_warnings_on_the_console()
    {
        var folder = Directory.CreateTempSubdirectory("chaos-");
        try
        {
            var log = Path.Combine(folder.FullName, "writer.log");
            await File.WriteAllLinesAsync(log, Enumerable.Range(1, ChaosRun.FailedLogLines + 5).Select(line => $"line {line}"), TestContext.Current.CancellationToken);
            var faults = new ScriptedFaults(new());
            var days = new ScriptedDays(new(), faults, _ => new DayOutcome(ExitCode: 1, Result: null, log));
            var console = new StringWriter();

            var (exitCode, _) = await new ChaosRun(Quick with { Scenarios = ["writer"] }, faults, days, console).RunAsync(CancellationToken.None);

            Assert.Equal(1, exitCode);
            var shown = console.ToString().ReplaceLineEndings("\n");
            Assert.Contains($"| line {ChaosRun.FailedLogLines + 5}", shown, StringComparison.Ordinal);
            Assert.Contains("| line 6\n", shown, StringComparison.Ordinal);
            Assert.DoesNotContain("| line 5\n", shown, StringComparison.Ordinal);

            // What every part printed is kept beside the day's log, and its warnings and errors are shown.
            var systemLog = await File.ReadAllTextAsync(Path.Combine(folder.FullName, "writer-system.log"), TestContext.Current.CancellationToken);
            Assert.StartsWith("2026-11-28T03:41:02.000Z [purchases-writer] info", systemLog, StringComparison.Ordinal);
            Assert.Contains("| 2026-11-28T03:41:40.000Z [purchases-writer] warn: MassTransit.ReceiveTransport[0]\n"
                + "  | 2026-11-28T03:41:40.000Z [purchases-writer]       Connection Failed", shown, StringComparison.Ordinal);
            Assert.DoesNotContain("Bus started", shown, StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task A_failed_day_whose_system_logs_cannot_be_read_still_ends_with_its_table()
    {
        var folder = Directory.CreateTempSubdirectory("chaos-");
        try
        {
            var log = Path.Combine(folder.FullName, "writer.log");
            await File.WriteAllTextAsync(log, "FAILED: the verification found a mismatch.\n", TestContext.Current.CancellationToken);
            var faults = new ScriptedFaults(new()) { SystemLogs = () => throw new InvalidOperationException("aspire logs exited with 1") };
            var days = new ScriptedDays(new(), faults, _ => new DayOutcome(ExitCode: 1, Result: null, log));
            var console = new StringWriter();

            var (exitCode, table) = await new ChaosRun(Quick with { Scenarios = ["writer", "mariadb"] }, faults, days, console).RunAsync(CancellationToken.None);

            Assert.Equal(1, exitCode);
            Assert.Equal(2, table.Split('\n').Count(row => row.Contains("**FAILED**", StringComparison.Ordinal)));
            Assert.Contains("| FAILED: the verification found a mismatch.", console.ToString(), StringComparison.Ordinal);
            Assert.Contains("the evidence could not be gathered: aspire logs exited with 1", console.ToString(), StringComparison.Ordinal);
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    [Fact]
    public async Task A_part_that_never_works_again_fails_the_run_even_when_its_day_verifies()
    {
        var faults = new ScriptedFaults(new(), probesBeforeRecovery: int.MaxValue);
        var days = new ScriptedDays(new(), faults, _ => Day(missing: 0));

        var (exitCode, table) = await new ChaosRun(Quick with { Scenarios = ["aggregator"], RecoveryLimit = TimeSpan.FromMilliseconds(200) },
            faults, days, TextWriter.Null).RunAsync(CancellationToken.None);

        Assert.Equal(1, exitCode);
        Assert.Contains("not recovered", table, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Late_retries_follow_a_first_pass_of_the_same_day_and_a_failed_first_pass_ends_the_scenario()
    {
        var events = new ConcurrentQueue<string>();
        var faults = new ScriptedFaults(events);
        var days = new ScriptedDays(events, faults, name => name.EndsWith("-first", StringComparison.Ordinal) ? Day(missing: 0) with { ExitCode = 1 } : Day(missing: 0));

        var (exitCode, table) = await new ChaosRun(Quick with { Scenarios = [ChaosScenario.LateRetry] }, faults, days, TextWriter.Null)
            .RunAsync(CancellationToken.None);

        Assert.Equal(1, exitCode);
        Assert.Equal(["prepare late-retry", "day late-retry-first starts", "day late-retry-first ends"], events);
        Assert.Contains("the first pass failed", table, StringComparison.Ordinal);
    }

    [Fact]
    public async Task In_containers_nothing_is_repaired_by_the_run_and_recovery_counts_from_the_fault()
    {
        var events = new ConcurrentQueue<string>();
        var faults = new ScriptedFaults(events);

        var (exitCode, _) = await new ChaosRun(Quick with { InContainers = true, Scenarios = ["writer-kill"] }, faults,
            new ScriptedDays(events, faults, _ => Day(missing: 0)), TextWriter.Null).RunAsync(CancellationToken.None);

        Assert.Equal(0, exitCode);
        Assert.Equal(["prepare writer-kill", "day writer-kill starts", "inject writer-kill", "probe writer-kill", "day writer-kill ends"], events);
    }

    [Fact]
    public async Task A_scenario_whose_sales_answers_went_back_fails_though_its_day_verified()
    {
        var faults = new ScriptedFaults(new(), probesBeforeRecovery: 4);
        var days = new ScriptedDays(new(), faults, _ => Day(missing: 0));
        // A rebuild answered from while it ran: the position went back to the start of the ledger.
        var answers = new ScriptedAnswers(ScriptedAnswers.Answer(1, 40, 90), ScriptedAnswers.Answer(1, 3, 4));

        var (exitCode, table) = await new ChaosRun(Quick with { Scenarios = ["rebuild"], Stores = 1 }, faults, days, TextWriter.Null, answers)
            .RunAsync(CancellationToken.None);

        Assert.Equal(1, exitCode);
        Assert.Contains("| rebuild | 100 | 100 | 0 | 0 | yes |", table, StringComparison.Ordinal);
        Assert.Contains("**FAILED**: an answer went back (store 1's answer counted through ledger entry 3, after store 1's had counted through 40)", table, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_replica_rebuild_with_a_question_answered_503_fails_though_its_day_verified()
    {
        var faults = new ScriptedFaults(new(), probesBeforeRecovery: 4);
        var days = new ScriptedDays(new(), faults, _ => Day(missing: 0));
        // The sibling replica did not answer one question in time while the other rebuilt.
        var answers = new ScriptedAnswers(ScriptedAnswers.Answer(1, 40, 90), ScriptedAnswers.Refused(503), ScriptedAnswers.Answer(1, 41, 91))
        {
            Afterwards = store => ScriptedAnswers.Answer(store, 41, 91),
        };

        var (exitCode, table) = await new ChaosRun(Quick with { Scenarios = [ChaosScenario.ReplicaRebuild], Stores = 1, AggregatorReplicas = 2 },
            faults, days, TextWriter.Null, answers).RunAsync(CancellationToken.None);

        Assert.Equal(1, exitCode);
        Assert.Contains("| replica-rebuild | 100 | 100 | 0 | 0 | yes |", table, StringComparison.Ordinal);
        Assert.Matches(@"\| 1 of \d+ \(503 × 1\) \| \*\*FAILED\*\*: 1 of \d+ sales questions unanswered \(503 × 1\) \|", table);
    }

    [Fact]
    public async Task A_replica_rebuild_with_every_question_answered_passes_and_says_none_went_unanswered()
    {
        var faults = new ScriptedFaults(new(), probesBeforeRecovery: 4);
        var days = new ScriptedDays(new(), faults, _ => Day(missing: 0));
        var answers = new ScriptedAnswers(ScriptedAnswers.Answer(1, 40, 90)) { Afterwards = store => ScriptedAnswers.Answer(store, 41, 91) };

        var (exitCode, table) = await new ChaosRun(Quick with { Scenarios = [ChaosScenario.ReplicaRebuild], Stores = 1, AggregatorReplicas = 2 },
            faults, days, TextWriter.Null, answers).RunAsync(CancellationToken.None);

        Assert.Equal(0, exitCode);
        Assert.Matches(@"\| 0 of \d+ \| passed \|", table);
    }

    [Fact]
    public async Task Unanswered_questions_are_counted_but_do_not_fail_a_scenario_that_stops_every_answerer()
    {
        var faults = new ScriptedFaults(new(), probesBeforeRecovery: 4);
        var days = new ScriptedDays(new(), faults, _ => Day(missing: 0));
        var answers = new ScriptedAnswers(ScriptedAnswers.Answer(1, 40, 90), ScriptedAnswers.Refused(503), ScriptedAnswers.Answer(1, 41, 91))
        {
            Afterwards = store => ScriptedAnswers.Answer(store, 41, 91),
        };

        var (exitCode, table) = await new ChaosRun(Quick with { Scenarios = ["aggregator"], Stores = 1 }, faults, days, TextWriter.Null, answers)
            .RunAsync(CancellationToken.None);

        Assert.Equal(0, exitCode);
        Assert.Matches(@"\| 1 of \d+ \(503 × 1\) \| passed \|", table);
    }

    [Fact]
    public async Task A_scenario_that_promises_every_answer_fails_when_its_questions_were_not_watched()
    {
        var faults = new ScriptedFaults(new());
        var days = new ScriptedDays(new(), faults, _ => Day(missing: 0));

        var (exitCode, table) = await new ChaosRun(Quick with { Scenarios = [ChaosScenario.ReplicaRebuild], AggregatorReplicas = 2 },
            faults, days, TextWriter.Null).RunAsync(CancellationToken.None);

        Assert.Equal(1, exitCode);
        Assert.Contains("| not watched | **FAILED**: its sales questions were not watched |", table, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_questions_are_watched_until_the_repaired_part_works_even_after_the_day_ended()
    {
        var events = new ConcurrentQueue<string>();
        // Three probes half a second apart: the rebuild outlasts the day, which ends as soon as it begins.
        var faults = new ScriptedFaults(events, probesBeforeRecovery: 3);
        var askedWhileRecovering = 0;
        var answers = new ScriptedAnswers(ScriptedAnswers.Answer(1, 40, 90))
        {
            Afterwards = store =>
            {
                askedWhileRecovering += faults.Recovered.IsCompleted ? 0 : 1;
                return ScriptedAnswers.Answer(store, 40, 90);
            },
        };

        var (exitCode, _) = await new ChaosRun(Quick with { Scenarios = [ChaosScenario.ReplicaRebuild], Stores = 1, AggregatorReplicas = 2 },
            faults, new QuickDays(events), TextWriter.Null, answers).RunAsync(CancellationToken.None);

        Assert.Equal(0, exitCode);
        Assert.True(askedWhileRecovering > 10, $"{askedWhileRecovering} questions asked after the day, while the part was probed");
    }

    private static DayOutcome Day(long missing) => new(0, new RunResult
    {
        AnswersMatchMySql = true,
        MaxMs = 12.4,
        Retries = new RetryFigures(Acknowledged: 100, Stored: 100 - missing, Missing: missing, Unexpected: 0, GivenUp: 0, AnswersOther: 0, LongestWithout201Seconds: 3.2),
    }, "day.log");

    private sealed class ScriptedFaults(ConcurrentQueue<string> events, int probesBeforeRecovery = 0) : IFaults
    {
        private readonly TaskCompletionSource _recovered = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private int _probes;

        public Task Recovered => _recovered.Task;

        public Task PrepareAsync(ChaosScenario scenario, CancellationToken cancellationToken) => Record($"prepare {scenario.Name}");

        public Task InjectAsync(ChaosScenario scenario, CancellationToken cancellationToken) => Record($"inject {scenario.Name}");

        public Task RepairAsync(ChaosScenario scenario, CancellationToken cancellationToken) => Record($"repair {scenario.Name}");

        public Func<string> SystemLogs { get; init; } = () =>
            "\u001b[2m2026-11-28T03:41:02.000Z \u001b[0m[purchases-writer] info: MassTransit[0]\n"
            + "2026-11-28T03:41:02.000Z [purchases-writer]       Bus started: rabbitmq://127.0.0.1/supermarket\n"
            + "2026-11-28T03:41:40.000Z [purchases-writer] warn: MassTransit.ReceiveTransport[0]\n"
            + "2026-11-28T03:41:40.000Z [purchases-writer]       Connection Failed: rabbitmq://127.0.0.1:5674/\n"
            + "2026-11-28T03:41:40.100Z [purchases-writer] info: Supermarket.PurchasesWriter[0]\n"
            + "2026-11-28T03:41:41.000Z [rabbitmq-3] 2026-11-28 03:41:41.000 [error] <0.1.0> closing AMQP connection\n";

        public Task<string> SystemLogsAsync(CancellationToken cancellationToken) => Task.FromResult(SystemLogs());

        public async Task<bool> RecoveredAsync(ChaosScenario scenario, CancellationToken cancellationToken)
        {
            await Record($"probe {scenario.Name}");
            if (Interlocked.Increment(ref _probes) <= probesBeforeRecovery)
            {
                return false;
            }

            _recovered.TrySetResult();
            return true;
        }

        private Task Record(string what)
        {
            events.Enqueue(what);
            return Task.CompletedTask;
        }
    }

    /// <summary>Days that end as soon as they begin.</summary>
    private sealed class QuickDays(ConcurrentQueue<string> events) : IChaosDays
    {
        public Task<DayOutcome> RunAsync(string name, IReadOnlyList<string> arguments, Action loadBegins, CancellationToken cancellationToken)
        {
            events.Enqueue($"day {name}");
            loadBegins();
            return Task.FromResult(Day(missing: 0));
        }
    }

    /// <summary>Each day but a first pass lasts until its part was probed as recovered (five seconds at most: a part
    /// that never recovers); its load begins after <paramref name="beforeTheLoad"/>.</summary>
    private sealed class ScriptedDays(ConcurrentQueue<string> events, ScriptedFaults faults, Func<string, DayOutcome> outcome, TimeSpan beforeTheLoad = default) : IChaosDays
    {
        public async Task<DayOutcome> RunAsync(string name, IReadOnlyList<string> arguments, Action loadBegins, CancellationToken cancellationToken)
        {
            events.Enqueue($"day {name} starts");
            if (beforeTheLoad > TimeSpan.Zero)
            {
                await Task.Delay(beforeTheLoad, cancellationToken);
                events.Enqueue($"day {name}'s load begins");
            }

            loadBegins();
            if (!name.EndsWith("-first", StringComparison.Ordinal))
            {
                await Task.WhenAny(faults.Recovered, Task.Delay(TimeSpan.FromSeconds(5), cancellationToken));
            }

            events.Enqueue($"day {name} ends");
            return outcome(name);
        }
    }
}
