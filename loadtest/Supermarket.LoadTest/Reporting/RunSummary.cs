using System.Globalization;
using System.Text;

namespace Supermarket.LoadTest.Reporting;

/// <summary>The seeds' summary, line for line comparable with their appendices.</summary>
public sealed record RunSummary(
    int Stores, long Successful, long Unsuccessful, double WallSeconds,
    double MeanMs, double MedianMs, double P95Ms, double P99Ms, double MaxMs)
{
    public double Throughput => WallSeconds > 0 ? (Successful + Unsuccessful) / WallSeconds : 0;

    public static RunSummary From(int stores, IReadOnlyList<RequestRecord> records, double wallSeconds)
    {
        var latencies = records.Select(r => r.LatencyMs).Order().ToArray();
        var successful = records.LongCount(r => r.Succeeded);
        return new RunSummary(
            stores, successful, records.Count - successful, wallSeconds,
            latencies.Length == 0 ? 0 : latencies.Average(),
            Percentile(latencies, 0.50),
            Percentile(latencies, 0.95),
            Percentile(latencies, 0.99),
            latencies.Length == 0 ? 0 : latencies[^1]);
    }

    /// <summary>Nearest-rank percentile of sorted values.</summary>
    public static double Percentile(double[] sorted, double fraction) =>
        sorted.Length == 0 ? 0 : sorted[Math.Clamp((int)Math.Ceiling(fraction * sorted.Length) - 1, 0, sorted.Length - 1)];

    public string ToText()
    {
        var text = new StringBuilder();
        void Line(string name, string value) => text.AppendLine(CultureInfo.InvariantCulture, $"{name,-28}{value}");
        Line("Number of stores:", Stores.ToString("N0", CultureInfo.InvariantCulture));
        Line("Successful requests:", Successful.ToString("N0", CultureInfo.InvariantCulture));
        Line("Unsuccessful requests:", Unsuccessful.ToString("N0", CultureInfo.InvariantCulture));
        Line("Wall time:", WallSeconds.ToString("F1", CultureInfo.InvariantCulture) + " s");
        Line("Throughput:", Throughput.ToString("N0", CultureInfo.InvariantCulture) + " requests/s");
        Line("Mean POST latency:", MeanMs.ToString("F2", CultureInfo.InvariantCulture) + " ms");
        Line("Median POST latency:", MedianMs.ToString("F2", CultureInfo.InvariantCulture) + " ms");
        Line("p95 POST latency:", P95Ms.ToString("F2", CultureInfo.InvariantCulture) + " ms");
        Line("p99 POST latency:", P99Ms.ToString("F2", CultureInfo.InvariantCulture) + " ms");
        Line("Max POST latency:", MaxMs.ToString("F2", CultureInfo.InvariantCulture) + " ms");
        return text.ToString();
    }
}
