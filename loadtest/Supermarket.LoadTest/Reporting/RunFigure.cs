using System.Globalization;
using Supermarket.LoadTest.Scenario;

namespace Supermarket.LoadTest.Reporting;

/// <summary>A figure of a finished run that thresholds can bound and comparisons set side by side, read from its
/// <see cref="RunResult"/> (so from any report folder's summary.json).</summary>
public sealed record RunFigure(string Name, string Description, string Unit, bool HigherIsBetter, Func<RunResult, double?> Read)
{
    /// <summary>Every figure, in the order reports and comparisons list them.</summary>
    public static IReadOnlyList<RunFigure> All { get; } =
    [
        new("rps", "POST rate", "req/s", true, result => result.RequestsPerSecond),
        new("e2e", "end to end: first POST → last purchase stored and counted", "purchases/s", true, result => result.EndToEndPurchasesPerSecond),
        new("p50", "median POST latency", "ms", false, result => result.MedianMs),
        new("p95", "p95 POST latency", "ms", false, result => result.P95Ms),
        new("p99", "p99 POST latency", "ms", false, result => result.P99Ms),
        new("max", "max POST latency", "ms", false, result => result.MaxMs),
        new("failures", "requests without a 201", "requests", false, result => result.Unsuccessful),
        new("lag", "after the last 201: all stored and counted", "s", false, result => result.CountedAfterLastResponseSeconds),
        new("stored-lag", "after the last 201: all stored in MySQL", "s", false, result => result.StoredAfterLastResponseSeconds),
        new("queue", "most purchases queued for the writer", "messages", false, result => result.MaxQueuedForWriter),
        new("per-message", "purchases per broker message (the first API)", "purchases", true, result => result.Published?.PurchasesPerMessage),
        new("single", "broker messages of one purchase (the first API)", "%", false, result => result.Published?.SinglePurchaseShare * 100),
        new("history-p99", "purchase history questions' p99, the slower kind", "ms", false, result => result.SlowestQuestions(question => question.P99Ms, DayReaders.StoreDay, DayReaders.CustomerPurchases)),
        new("sales-p99", "sales questions' p99, the slower kind", "ms", false, result => result.SlowestQuestions(question => question.P99Ms, DayReaders.TopItems, DayReaders.TopStores)),
        new("range-p99", "the week's top items' p99", "ms", false, result => result.SlowestQuestions(question => question.P99Ms, DayReaders.TopItemsThisWeek)),
        new("sales-p999", "sales questions' p99.9, the slower kind", "ms", false, result => result.SlowestQuestions(question => question.P999Ms, DayReaders.TopItems, DayReaders.TopStores)),
        new("db-cpu", "MariaDB's CPU a purchase over the day", "µs", false, result => result.DayCpuMicrosecondsPerPurchase("mariadb")),
        new("writer-cpu", "the writers' CPU a purchase over the day", "µs", false, result => result.DayCpuMicrosecondsPerPurchase("writer")),
        new("machine-cpu", "the machine's CPU a purchase over the day", "µs", false, result => result.DayCpuMicrosecondsPerPurchase(ProcessCpu.Machine)),
        new("db-reads", "pages MariaDB read from disk per 1,000 purchases over the day", "pages", false, result => result.DayPagesPerPurchase(pool => pool.ReadFromDisk) * 1000),
        new("db-writes", "pages MariaDB wrote per 1,000 purchases over the day", "pages", false, result => result.DayPagesPerPurchase(pool => pool.Written) * 1000),
    ];

    public static RunFigure? Find(string name) => All.FirstOrDefault(figure => figure.Name.Equals(name, StringComparison.OrdinalIgnoreCase));

    public string Format(double? value) => value switch
    {
        null => "-",
        { } v when Unit is "ms" or "s" or "µs" or "purchases" or "pages" or "%" => v.ToString(v < 10 ? "F2" : "F1", CultureInfo.InvariantCulture) + " " + Unit,
        { } v => v.ToString("N0", CultureInfo.InvariantCulture) + " " + Unit,
    };
}
