using System.Diagnostics.Metrics;
using Supermarket.Hosting.Observability;

namespace Supermarket.Purchases.Recording;

/// <summary>What the writer measures: purchases per transaction, how long a write and its announcement took, and
/// failed attempts (each retried).</summary>
public sealed class WriterMetrics
{
    private readonly Histogram<int> _batchSize;
    private readonly Histogram<double> _writeDuration;
    private readonly Counter<long> _stored;
    private readonly Counter<long> _failures;

    public WriterMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MetricsRegistration.MeterName);
        _batchSize = meter.CreateHistogram("supermarket.writer.batch.size", "{purchase}", "Purchases per transaction",
            advice: HistogramBuckets.Purchases);
        _writeDuration = meter.CreateHistogram("supermarket.writer.write.duration", "ms", "One transaction and its PurchasesStored announcement",
            advice: HistogramBuckets.Milliseconds);
        _stored = meter.CreateCounter<long>("supermarket.writer.purchases.stored", "{purchase}", "Purchases written and announced (a retried batch counts again)");
        _failures = meter.CreateCounter<long>("supermarket.writer.failures", "{batch}", "Attempts to write a batch that failed");
    }

    public void Stored(int purchases, TimeSpan took)
    {
        _batchSize.Record(purchases);
        _writeDuration.Record(took.TotalMilliseconds);
        _stored.Add(purchases);
    }

    public void Failed() => _failures.Add(1);
}
