using System.Diagnostics.Metrics;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.PurchasesWriter.Recording;

public sealed class WriterMetrics
{
    private readonly Histogram<int> _batchSize;
    private readonly Histogram<double> _writeDuration;
    private readonly Counter<long> _stored;
    private readonly Counter<long> _alreadyStored;
    private readonly Counter<long> _failures;
    private readonly Counter<long> _setAside;

    public WriterMetrics(IMeterFactory meters, DatabaseAvailability database)
    {
        var meter = meters.Create(TelemetryRegistration.MeterName);
        _batchSize = meter.CreateHistogram("supermarket.writer.batch.size", "{purchase}", "Purchases per transaction",
            advice: HistogramBuckets.Purchases);
        _writeDuration = meter.CreateHistogram("supermarket.writer.write.duration", "ms", "One transaction: purchases, lines and their sales ledger entry",
            advice: HistogramBuckets.Milliseconds);
        _stored = meter.CreateCounter<long>("supermarket.writer.purchases.stored", "{purchase}", "Purchases newly stored");
        _alreadyStored = meter.CreateCounter<long>("supermarket.writer.purchases.already_stored", "{purchase}", "Purchases delivered again and left as they were");
        _failures = meter.CreateCounter<long>("supermarket.writer.failures", "{batch}", "Attempts to write a batch that failed");
        _setAside = meter.CreateCounter<long>("supermarket.writer.purchases.set_aside", "{purchase}",
            "Purchases MySQL refused as they are, each set aside alone for a replay once the cause is fixed");
        meter.CreateObservableGauge("supermarket.writer.database.away", () => database.IsAway ? 1 : 0, null,
            "1 while the database is away and the writer's batches wait in their retries");
    }

    public void Stored(int delivered, int stored, TimeSpan took)
    {
        _batchSize.Record(delivered);
        _writeDuration.Record(took.TotalMilliseconds);
        _stored.Add(stored);
        if (stored < delivered)
        {
            _alreadyStored.Add(delivered - stored);
        }
    }

    public void Failed() => _failures.Add(1);

    public void SetAside() => _setAside.Add(1);
}
