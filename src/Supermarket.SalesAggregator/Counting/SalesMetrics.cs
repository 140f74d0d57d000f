using System.Diagnostics.Metrics;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.SalesAggregator.Counting;

public sealed class SalesMetrics
{
    private readonly Counter<long> _counted;
    private readonly Histogram<double> _ledgerLag;
    private readonly Counter<long> _leftOut;
    private readonly Counter<long> _missing;
    private readonly Histogram<double> _queryDuration;
    private readonly Histogram<double> _ledgerWait;

    public SalesMetrics(IMeterFactory meters, MatrixReadiness readiness)
    {
        var meter = meters.Create(TelemetryRegistration.MeterName);
        _counted = meter.CreateCounter<long>("supermarket.sales.purchases.counted", "{purchase}", "Purchases added to the sales matrix");
        _ledgerLag = meter.CreateHistogram("supermarket.sales.ledger.lag", "ms", "From a ledger entry's commit to its count in the matrix",
            advice: HistogramBuckets.Milliseconds);
        _leftOut = meter.CreateCounter<long>("supermarket.sales.lines.left_out", "{line}", "Stored lines the matrix cannot hold (outside its catalog) or read");
        _missing = meter.CreateCounter<long>("supermarket.sales.ledger.missing_entries", "{entry}",
            "Ledger entries the feed could not read while it read a later one; it waits for each, never passes it");
        meter.CreateObservableGauge("supermarket.sales.ledger.missing_entry_wait", () => readiness.WaitingTime.TotalSeconds, "s",
            "How long the feed has waited for a missing ledger entry (0: none missing)");
        _queryDuration = meter.CreateHistogram("supermarket.sales.query.duration", "ms", "Time to rank the matrix for one question, or for one message of questions asked together",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25] });
        _ledgerWait = meter.CreateHistogram("supermarket.sales.question.ledger_wait", "ms",
            "From a message of questions' arrival to the end of the ledger read that follows it, which every answer waits for",
            advice: HistogramBuckets.Milliseconds);
    }

    public void Applied(int purchases, TimeSpan sinceCommit)
    {
        _counted.Add(purchases);
        _ledgerLag.Record(Math.Max(0, sinceCommit.TotalMilliseconds));
    }

    /// <summary>An entry that cannot be read counts as one line at least (the log names its seq).</summary>
    public void LeftOut(int lines) => _leftOut.Add(Math.Max(lines, 1));

    public void MissingEntry() => _missing.Add(1);

    public void WaitedForLedger(TimeSpan took, bool caughtUp) =>
        _ledgerWait.Record(took.TotalMilliseconds, new KeyValuePair<string, object?>("caught_up", caughtUp));

    public void Answered(string question, TimeSpan took) =>
        _queryDuration.Record(took.TotalMilliseconds, new KeyValuePair<string, object?>("question", question));
}
