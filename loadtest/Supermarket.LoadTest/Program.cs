using System.Diagnostics;
using System.Globalization;
using Supermarket.LoadTest;
using Supermarket.LoadTest.Reporting;
using Supermarket.LoadTest.Scenario;
using Supermarket.LoadTest.Verification;

// The chain's day against the API, the seeds' summary, the reports, and a check that nothing was lost.
var commandLine = new LoadCommandLine();
var parsed = commandLine.Command.Parse(args);
if (parsed.Errors.Count > 0 || parsed.Action is not null)
{
    // --help, or what is wrong with the command line followed by the usage.
    return parsed.Invoke();
}

var options = commandLine.Read(parsed);
using var http = PurchaseSender.CreateClient(options);
using var queues = new QueueDepths(options.BrokerManagement, options.BrokerVirtualHost);
var verifier = new DayVerifier(options, http);
// The first, a middle and the last store: one from each time zone (or every store).
int[] sampled = options.CheckEveryStore
    ? [.. Enumerable.Range(1, options.Stores)]
    : [.. new[] { 1, (options.Stores / 2) + 1, options.Stores }.Where(s => s <= options.Stores).Distinct()];
var storedBefore = options.Verify ? await verifier.CountStoredAsync() : 0;
var ledgerBefore = options.Verify ? await verifier.LedgerSeqAsync() : 0;
IReadOnlySet<Guid> idsBefore = options.Verify && options.Retries ? await verifier.StoredIdsAsync() : new HashSet<Guid>();
var untouched = options.Verify ? await verifier.UntouchedStoresAsync(sampled) : [];

// Room for a retry of every purchase, and then some, when the run retries.
var log = new RequestLog(options.TotalPurchases * (options.Retries ? 3 : 1));
var tally = new SalesTally(sampled);
var history = new HistorySample(sampled[0]);
var outcomes = new PurchaseOutcomes();
var day = new ChainDay(options, new PurchaseSender(http, log, tally, history, options, outcomes));
var monitor = new ProgressMonitor(log, options.TotalPurchases, queues);

Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
    $"{options.Model} model: {options.Stores} stores x {options.Hours} hours x {options.PurchasesPerHour} purchases/hour = {options.TotalPurchases:N0} POSTs to {options.Url}"));
var historyReaders = new HistoryReaders(http, options);
using var stopMonitor = new CancellationTokenSource();
var monitoring = monitor.RunAsync(stopMonitor.Token);
var reading = historyReaders.RunAsync(stopMonitor.Token);
var watch = Stopwatch.StartNew();
await day.RunAsync();
var wallSeconds = watch.Elapsed.TotalSeconds;
await stopMonitor.CancelAsync();
await monitoring;
await reading;

var records = log.Records().ToList();
var summary = RunSummary.From(options.Stores, records, wallSeconds);
Console.WriteLine();
Console.Write(summary.ToText());
var historyQueries = historyReaders.Figures();
foreach (var figures in historyQueries)
{
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"GET {figures.Question}: {figures.Asked:N0} asked, {figures.Failures:N0} not 200, p50 {figures.P50Ms:F2} ms, p99 {figures.P99Ms:F2} ms, max {figures.MaxMs:F2} ms"));
}

var verified = !options.Verify || await verifier.VerifyAsync(storedBefore, ledgerBefore, summary.Successful, tally, history, untouched,
    options.Retries ? (idsBefore, outcomes) : null);
var result = new RunResult(
    options.Stores, summary.Successful, summary.Unsuccessful, summary.WallSeconds, summary.Throughput,
    summary.MeanMs, summary.MedianMs, summary.P99Ms, summary.MaxMs,
    records.Count(r => r.Status == 503), monitor.Samples.Count == 0 ? 0 : monitor.Samples.Max(sample => sample.QueueDepths[0]),
    verifier.Lag.Stored, verifier.Lag.Counted,
    options.Verify ? verified : null, options.Verify ? verifier.AnswersMatchMySql : null,
    options.Retries
        ? new RetryFigures(verifier.IdFigures.Acknowledged, verifier.IdFigures.Stored, verifier.IdFigures.Missing, verifier.IdFigures.Unexpected,
            outcomes.GivenUp.Count, records.Count(r => r.Status is not (201 or 503)),
            log.LongestStretchWithout201Seconds())
        : null,
    historyQueries);
if (result.EndToEndSeconds is { } endToEnd)
{
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
        $"  end to end: first POST → last purchase stored and counted {endToEnd:F1} s, {result.EndToEndPurchasesPerSecond:N0} purchases/s"));
}

var reports = ReportWriter.Write(options.ReportsDirectory ?? DefaultReportsDirectory(options), options, summary, result, records, monitor.Samples, day.Openings);
Console.WriteLine();
Console.WriteLine($"Reports: {reports} (summary.json for scripts)");

// A retrying run fails on purchases the stores gave up on, not on the answers they retried.
var failed = options.Retries ? outcomes.GivenUp.Count : summary.Unsuccessful;

if (failed > 0)
{
    Console.WriteLine($"FAILED: {failed:N0} {(options.Retries ? "purchases were given up" : "requests did not get a 201")}.");
}

if (!verified)
{
    Console.WriteLine("FAILED: the verification found a mismatch.");
}

return failed == 0 && verified ? 0 : 1;

static string DefaultReportsDirectory(LoadOptions options)
{
    var root = new DirectoryInfo(Environment.CurrentDirectory);
    while (root is not null && !File.Exists(Path.Combine(root.FullName, "Supermarket.sln")))
    {
        root = root.Parent;
    }

    var name = string.Create(CultureInfo.InvariantCulture, $"{DateTime.Now:yyyyMMdd-HHmmss}-{options.Stores}stores-{options.Model.ToString().ToLowerInvariant()}");
    return Path.Combine(root?.FullName ?? Environment.CurrentDirectory, "loadtest", "reports", name);
}
