using System.Diagnostics.Metrics;
using Supermarket.Hosting.Observability;

namespace Supermarket.Store.Sales;

/// <summary>What the aggregator measures: purchases counted into the matrix, announcements skipped as already
/// counted, and how long a top-N question took to answer from the matrix.</summary>
public sealed class SalesMetrics
{
    private readonly Counter<long> _counted;
    private readonly Counter<long> _duplicates;
    private readonly Histogram<double> _queryDuration;

    public SalesMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MetricsRegistration.MeterName);
        _counted = meter.CreateCounter<long>("supermarket.sales.purchases.counted", "{purchase}", "Purchases added to the sales matrix");
        _duplicates = meter.CreateCounter<long>("supermarket.sales.duplicates.skipped", "{purchase}", "Announcements of purchases already counted");
        _queryDuration = meter.CreateHistogram("supermarket.sales.query.duration", "ms", "Time to rank the matrix for one question",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25] });
    }

    public void Counted(int purchases, int duplicates)
    {
        _counted.Add(purchases);
        if (duplicates > 0)
        {
            _duplicates.Add(duplicates);
        }
    }

    public void Answered(string question, TimeSpan took) =>
        _queryDuration.Record(took.TotalMilliseconds, new KeyValuePair<string, object?>("question", question));
}
