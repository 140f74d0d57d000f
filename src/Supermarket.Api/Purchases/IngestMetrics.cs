using System.Diagnostics.Metrics;
using Supermarket.Hosting.Observability;

namespace Supermarket.Api.Purchases;

/// <summary>What ingest measures: every answer to a POST by status (201 = accepted), how long the broker took to
/// confirm, and how many purchases went in each confirmed message.</summary>
public sealed class IngestMetrics
{
    private readonly Counter<long> _answered;
    private readonly Histogram<double> _publishDuration;
    private readonly Histogram<int> _batchSize;

    public IngestMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MetricsRegistration.MeterName);
        _answered = meter.CreateCounter<long>("supermarket.purchases.answered", "{purchase}", "POST /purchase answers, by HTTP status (201 = accepted)");
        _publishDuration = meter.CreateHistogram("supermarket.publish.duration", "ms", "From publish to the broker's confirm (or the timeout)",
            advice: HistogramBuckets.Milliseconds);
        _batchSize = meter.CreateHistogram("supermarket.publish.batch.size", "{purchase}", "Purchases per published message",
            advice: HistogramBuckets.Purchases);
    }

    public void Answered(int status) => _answered.Add(1, new KeyValuePair<string, object?>("status", status));

    public void Published(int purchases, TimeSpan took, bool confirmed)
    {
        _publishDuration.Record(took.TotalMilliseconds, new KeyValuePair<string, object?>("confirmed", confirmed));
        _batchSize.Record(purchases);
    }
}
