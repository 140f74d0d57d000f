using System.Diagnostics.Metrics;

namespace Supermarket.ServiceDefaults.Observability;

/// <summary>Bucket bounds the processes' histograms share, so durations and batch sizes compare across them.</summary>
public static class HistogramBuckets
{
    public static InstrumentAdvice<double> Milliseconds { get; } =
        new() { HistogramBucketBoundaries = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000] };

    public static InstrumentAdvice<int> Purchases { get; } =
        new() { HistogramBucketBoundaries = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] };
}
