using System.Diagnostics;
using System.Globalization;
using Supermarket.Database.LoadTest;
using Supermarket.LoadTest.Live;
using Supermarket.LoadTest.Reporting;
using Supermarket.LoadTest.Scenario;
using Supermarket.LoadTest.Verification;

namespace Supermarket.LoadTest;

/// <summary>
/// One run: the simulation against the API with the live dashboard, the seeds' summary, the verification that nothing
/// was lost, the thresholds, and the report folder. Its result is the process's exit code: 0 all well, 1 requests
/// without a 201 (or purchases given up, when retrying) or a failed verification, 2 only a threshold breached.
/// </summary>
/// <param name="api">The API's client; by default one to <see cref="LoadOptions.Url"/> (tests pass their own).</param>
public sealed class LoadRun(LoadOptions options, HttpClient? api = null)
{
    public const int ThresholdBreached = 2;

    /// <summary>Where the report went, once written.</summary>
    public string? ReportsDirectory { get; private set; }

    public async Task<int> RunAsync()
    {
        // Purchase history answers only an analyst: a verification without a key to issue one would send the whole
        // day and then fail on a 401.
        if (options.Verify && options.Credentials is null)
        {
            Console.WriteLine($"FAILED: {NoCredential}");
            return 1;
        }

        if (options.Prime > TimeSpan.Zero && options.Simulation == Simulation.Day)
        {
            Console.WriteLine("FAILED: --prime sends the run's rate, and the closed-loop day has none: use --simulation constant or ramp.");
            return 1;
        }

        using var ownClient = api is null ? PurchaseSender.CreateClient(options) : null;
        var http = api ?? ownClient!;
        using var queues = new QueueDepths(options.BrokerManagement, options.BrokerVirtualHost);
        var verifier = new DayVerifier(options, http);
        // The first, a middle and the last store: one from each time zone (or every store).
        int[] sampled = options.CheckEveryStore
            ? [.. Enumerable.Range(1, options.Stores)]
            : [.. new[] { 1, (options.Stores / 2) + 1, options.Stores }.Where(s => s <= options.Stores).Distinct()];
        var system = await SystemUnderTest.ReadAsync(options);
        if (LoadTestBuild.DisagreementWith(system, LoadTestBuild.Version) is { } otherBuild)
        {
            Console.WriteLine($"FAILED: {otherBuild}");
            return 1;
        }

        var publishedBefore = await PublishedMessages.ReadAsync(options.ApiManagement);
        // A chaos day may restart MariaDB while this process starts: what the verification needs from before the day
        // is read again while the database is away, for a bounded time.
        var (storedBefore, ledgerBefore, idsBefore, untouched, answersBefore) = !options.Verify
            ? new BeforeTheDay(0, 0, new HashSet<Guid>(), new HashSet<int>(), null)
            : await DatabaseOutage.WaitOutAsync(async () => new BeforeTheDay(
                await verifier.CountStoredAsync(),
                await verifier.LedgerSeqAsync(),
                options.Retries ? await verifier.StoredIdsAsync() : new HashSet<Guid>(),
                await verifier.UntouchedStoresAsync(sampled),
                await verifier.AnswersBeforeTheDayAsync(sampled)),
                DatabasePatienceBeforeTheDay,
                away => Console.WriteLine($"MariaDB is away ({away.Message}); reading what stands before the day again"));

        // Before the day's clocks start (the schedule's, the log's): what was due during the priming is not due at once.
        if (options.Prime > TimeSpan.Zero)
        {
            var primed = await ClientPriming.PrimeAsync(options);
            Console.WriteLine($"The load generator primed: {primed:N0} purchases to a bare server of its own over {options.Prime.TotalSeconds:N0} s");
        }

        // Room for a retry of every purchase, and then some, when the run retries.
        var log = new RequestLog(options.TotalPurchases * (options.Retries ? 3 : 1));
        var tally = new SalesTally(sampled);
        var history = new HistorySample(sampled[0]);
        var outcomes = new PurchaseOutcomes();
        var day = new ChainDay(options, new PurchaseSender(http, log, tally, history, options, outcomes));
        var database = options.Verify ? new StoredSales(options.Database) : null;
        var monitor = new LiveMonitor(options, log, queues, database is null ? null : new StorageProgress(database, http, ledgerBefore), day.Zones);
        var startedAt = DateTimeOffset.UtcNow;

        Console.WriteLine(Headline(options));
        var readers = new DayReaders(http, options);
        var pages = new LivePages(options);
        using var stopMonitor = new CancellationTokenSource();
        var monitoring = monitor.RunAsync(stopMonitor.Token);
        var reading = readers.RunAsync(stopMonitor.Token);
        var watching = pages.RunAsync(stopMonitor.Token);
        var poolBefore = database is null ? null : await BufferPoolPages.ReadAsync(database);
        var cpuBefore = ProcessCpu.Snapshot();
        var watch = Stopwatch.StartNew();
        await day.RunAsync();
        var wallSeconds = watch.Elapsed.TotalSeconds;
        await stopMonitor.CancelAsync();
        await monitoring;
        await reading;
        await watching;

        var published = await PublishedMessages.ReadAsync(options.ApiManagement) is { } publishedAfter && publishedBefore is not null
            ? publishedAfter.Since(publishedBefore)
            : null;
        var records = log.Records().ToList();
        var successful = records.LongCount(r => r.Succeeded);
        // The warm-up's requests count for the verification, not for the rate and the latencies.
        var warmUp = Math.Min(options.WarmUp.TotalSeconds, wallSeconds);
        var summary = RunSummary.From(options.Stores, [.. records.Where(r => r.StartMs >= warmUp * 1000)], wallSeconds - warmUp);
        Console.WriteLine();
        Console.Write(summary.ToText());
        var questions = readers.Figures(warmUp);
        foreach (var figures in questions)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"GET {figures.Question}: {figures.Asked:N0} asked, {figures.Failures:N0} not 200, p50 {figures.P50Ms:F2} ms, p99 {figures.P99Ms:F2} ms, p99.9 {figures.P999Ms:F2} ms, max {figures.MaxMs:F2} ms"));
        }

        if (pages.Describe() is { } seen)
        {
            Console.WriteLine(seen);
        }

        var cpuCaughtUp = options.Verify ? null : ProcessCpu.Snapshot();
        BufferPoolPages? poolCaughtUp = null;
        var verified = !options.Verify || await verifier.VerifyAsync(storedBefore, ledgerBefore, successful, tally, history, untouched,
            options.Retries ? (idsBefore, outcomes) : null, caughtUp: async () =>
            {
                cpuCaughtUp = ProcessCpu.Snapshot();
                poolCaughtUp = await BufferPoolPages.ReadAsync(database!);
            }, answersBefore);
        // A verification that stopped before every purchase was stored and counted ends the day where it stopped.
        cpuCaughtUp ??= ProcessCpu.Snapshot();
        var cpu = new CpuFigures(cpuCaughtUp.Since(cpuBefore), ProcessCpu.Snapshot().Since(cpuCaughtUp));
        Console.WriteLine($"  CPU seconds over the day: {CpuFigures.Describe(cpu.Day)}");
        Console.WriteLine($"  CPU seconds over the verification: {CpuFigures.Describe(cpu.Verification)}");
        var dayPool = poolCaughtUp is not null && poolBefore is not null ? poolCaughtUp.Since(poolBefore) : null;
        if (dayPool is not null)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  MariaDB's buffer pool over the day: {dayPool.ReadFromDisk:N0} pages read from disk, {dayPool.Requested:N0} asked of it, {dayPool.Written:N0} written"));
        }

        var result = new RunResult
        {
            Label = options.Name,
            Simulation = options.Simulation.Describe(),
            StartedAt = startedAt,
            Stores = options.Stores,
            Successful = successful,
            Unsuccessful = records.Count - successful,
            WallSeconds = wallSeconds,
            WarmUpSeconds = warmUp,
            RequestsPerSecond = summary.Throughput,
            MeanMs = summary.MeanMs,
            MedianMs = summary.MedianMs,
            P95Ms = summary.P95Ms,
            P99Ms = summary.P99Ms,
            MaxMs = summary.MaxMs,
            Answers503 = records.Count(r => r.Status == 503),
            MaxQueuedForWriter = monitor.Timeline.Samples.Max(sample => sample.WriterQueue) ?? 0,
            StoredAfterLastResponseSeconds = verifier.Lag.Stored,
            CountedAfterLastResponseSeconds = verifier.Lag.Counted,
            Verified = options.Verify ? verified : null,
            AnswersMatchMySql = options.Verify ? verifier.AnswersMatchMySql : null,
            Retries = options.Retries
                ? new RetryFigures(verifier.IdFigures.Acknowledged, verifier.IdFigures.Stored, verifier.IdFigures.Missing, verifier.IdFigures.Unexpected,
                    outcomes.GivenUp.Count, records.Count(r => r.Status is not (201 or 503)),
                    log.LongestStretchWithout201Seconds())
                : null,
            Questions = questions,
            Published = published,
            Checks = verifier.Checks,
            Cpu = cpu,
            DayBufferPool = dayPool,
            PurchasesStoredBefore = system.PurchasesStored,
        };
        result = result with { Thresholds = [.. options.Thresholds.Select(threshold => threshold.Evaluate(result))] };
        if (result.EndToEndSeconds is { } endToEnd)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  end to end: first POST → last purchase stored and counted {endToEnd:F1} s, {result.EndToEndPurchasesPerSecond:N0} purchases/s"));
        }

        foreach (var threshold in result.Thresholds)
        {
            Console.WriteLine($"  threshold {threshold.Threshold}: {RunFigure.Find(threshold.Figure)!.Format(threshold.Actual)}, {(threshold.Passed ? "met" : "BREACHED")}");
        }

        ReportsDirectory = ReportWriter.Write(options.ReportsDirectory ?? DefaultReportsDirectory(),
            new FinishedRun(options, result, summary, records, monitor.Timeline.Samples, day.Zones(), system, monitor.LastFrame));
        Console.WriteLine();
        Console.WriteLine($"Reports: {ReportsDirectory} (report.html to look at, summary.json for scripts)");

        // A retrying run fails on purchases the stores gave up on, not on the answers they retried.
        var failed = options.Retries ? outcomes.GivenUp.Count : result.Unsuccessful;
        if (failed > 0)
        {
            Console.WriteLine($"FAILED: {failed:N0} {(options.Retries ? "purchases were given up" : "requests did not get a 201")}.");
        }

        if (!verified)
        {
            Console.WriteLine("FAILED: the verification found a mismatch.");
        }

        if (result.Thresholds.Any(threshold => !threshold.Passed))
        {
            Console.WriteLine($"FAILED: thresholds breached: {string.Join("; ", result.Thresholds.Where(t => !t.Passed).Select(t => t.Threshold))}.");
        }

        return failed > 0 || !verified ? 1 : result.Thresholds.All(threshold => threshold.Passed) ? 0 : ThresholdBreached;
    }

    /// <summary>What a run prints as its purchases begin, once it has read what stands before the day.</summary>
    public static string Headline(LoadOptions options) => string.Create(CultureInfo.InvariantCulture,
        $"{options.Simulation.Describe()}: {options.Stores} stores x {options.Hours} hours x {options.PurchasesPerHour} purchases/hour = {options.TotalPurchases:N0}{LoadBeginsMarker}{options.Url}");

    /// <summary>Whether a line of a run's console is its <see cref="Headline"/>: a chaos day's fault is timed from it.</summary>
    public static bool BeginsTheLoad(string line) => line.Contains(LoadBeginsMarker, StringComparison.Ordinal);

    private const string LoadBeginsMarker = " POSTs to ";

    /// <summary>How long the run waits for MariaDB before its day: a restart takes seconds; a database away longer
    /// than this ends the run as a failure.</summary>
    public static readonly TimeSpan DatabasePatienceBeforeTheDay = TimeSpan.FromMinutes(2);

    /// <summary>What the verification compares the day with, read before it.</summary>
    private sealed record BeforeTheDay(long Stored, long LedgerSeq, IReadOnlySet<Guid> Ids, IReadOnlySet<int> Untouched, AnswersBeforeTheDay? Answers);

    /// <summary>Why a verifying run cannot start without a signing key.</summary>
    public const string NoCredential = "the verification reads purchase history, which needs an analyst's credential, and there is no key "
        + "to issue one: neither Auth__SigningKey nor this machine's .local/auth/signing-key (the AppHost makes it: ./run.sh up). "
        + "Run with --no-verify to send the day unverified.";

    private string DefaultReportsDirectory()
    {
        var name = string.Create(CultureInfo.InvariantCulture, $"{DateTime.Now:yyyyMMdd-HHmmss}-{options.Stores}stores-{options.Simulation.ToString().ToLowerInvariant()}");
        return Path.Combine(Repository.Root() ?? Environment.CurrentDirectory, "loadtest", "reports", name);
    }
}
