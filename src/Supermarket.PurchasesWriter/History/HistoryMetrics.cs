using System.Diagnostics.Metrics;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.PurchasesWriter.History;

public sealed class HistoryMetrics
{
    private readonly Histogram<double> _queryDuration;

    public HistoryMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(TelemetryRegistration.MeterName);
        _queryDuration = meter.CreateHistogram("supermarket.history.query.duration", "ms", "Time to read one page of purchase history",
            advice: HistogramBuckets.Milliseconds);
    }

    public void Answered(string question, TimeSpan took) =>
        _queryDuration.Record(took.TotalMilliseconds, new KeyValuePair<string, object?>("question", question));
}
