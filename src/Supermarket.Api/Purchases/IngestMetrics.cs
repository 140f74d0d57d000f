using System.Diagnostics.Metrics;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.Api.Purchases;

/// <summary>What ingest measures beside ASP.NET Core's request metrics, and the live page's confirmed rate.</summary>
public sealed class IngestMetrics
{
    private readonly Histogram<double> _publishDuration;
    private readonly Histogram<int> _batchSize;
    private readonly Counter<long> _refused;

    public IngestMetrics(IMeterFactory meters, TimeProvider clock)
    {
        Confirmed = new RecentRate(clock);
        var meter = meters.Create(TelemetryRegistration.MeterName);
        _publishDuration = meter.CreateHistogram("supermarket.publish.duration", "ms", "From publish to the broker's confirm, refusal or the timeout",
            advice: HistogramBuckets.Milliseconds);
        _batchSize = meter.CreateHistogram("supermarket.publish.batch.size", "{purchase}", "Purchases per published message",
            advice: HistogramBuckets.Purchases);
        _refused = meter.CreateCounter<long>("supermarket.purchases.refused", "{purchase}",
            "Purchases answered 503 at once, without a publish, while the broker was known to be gone");
    }

    /// <summary>Each answered 201 unless its request gave up first.</summary>
    public RecentRate Confirmed { get; }

    public void RefusedWhileBrokerGone() => _refused.Add(1);

    /// <summary>outcome: "confirmed", "refused" (nacked: a queue at its limit) or "unconfirmed".</summary>
    public void Published(int purchases, TimeSpan took, string outcome)
    {
        _publishDuration.Record(took.TotalMilliseconds, new KeyValuePair<string, object?>("outcome", outcome));
        _batchSize.Record(purchases);
        if (outcome == "confirmed")
        {
            Confirmed.Add(purchases);
        }
    }
}
