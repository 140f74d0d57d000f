using System.Globalization;
using System.Text;
using OpenTelemetry;
using OpenTelemetry.Metrics;

namespace Supermarket.ServiceDefaults.Observability;

/// <summary>
/// Renders OpenTelemetry metrics in Prometheus' text format when scraped. Written here because the registry has the
/// OpenTelemetry SDK but not its Prometheus exporter packages; it covers the instrument kinds this system uses
/// (counters, up-down counters, gauges, explicit-bucket histograms).
/// </summary>
public sealed class PrometheusExporter : BaseExporter<Metric>
{
    private readonly Lock _lock = new();
    private readonly BaseExportingMetricReader _reader;
    private StringBuilder _text = new();

    public PrometheusExporter()
    {
        _reader = new BaseExportingMetricReader(this) { TemporalityPreference = MetricReaderTemporalityPreference.Cumulative };
    }

    /// <summary>The reader to add to the meter provider; a scrape asks it to collect.</summary>
    public MetricReader Reader => _reader;

    /// <summary>Collects every instrument now and returns the text a Prometheus scrape expects.</summary>
    public string Scrape()
    {
        lock (_lock)
        {
            _text = new StringBuilder();
            _reader.Collect(timeoutMilliseconds: 5_000);
            return _text.ToString();
        }
    }

    public override ExportResult Export(in Batch<Metric> batch)
    {
        foreach (var metric in batch)
        {
            Append(_text, metric);
        }

        return ExportResult.Success;
    }

    private static void Append(StringBuilder text, Metric metric)
    {
        var name = Name(metric.Name, metric.Unit);
        var histogram = metric.MetricType == MetricType.Histogram;
        var counter = metric.MetricType is MetricType.LongSum or MetricType.DoubleSum;
        if (counter)
        {
            name += "_total";
        }

        var type = histogram ? "histogram" : counter ? "counter" : "gauge";
        text.Append("# HELP ").Append(name).Append(' ').AppendLine(metric.Description);
        text.Append("# TYPE ").Append(name).Append(' ').AppendLine(type);
        foreach (ref readonly var point in metric.GetMetricPoints())
        {
            var labels = Labels(point.Tags);
            if (histogram)
            {
                long cumulative = 0;
                foreach (var bucket in point.GetHistogramBuckets())
                {
                    cumulative += bucket.BucketCount;
                    var bound = double.IsPositiveInfinity(bucket.ExplicitBound) ? "+Inf" : Number(bucket.ExplicitBound);
                    Sample(text, name + "_bucket", WithLabel(labels, "le", bound), cumulative);
                }

                Sample(text, name + "_sum", labels, point.GetHistogramSum());
                Sample(text, name + "_count", labels, point.GetHistogramCount());
                continue;
            }

            var value = metric.MetricType switch
            {
                MetricType.LongSum or MetricType.LongSumNonMonotonic => point.GetSumLong(),
                MetricType.DoubleSum or MetricType.DoubleSumNonMonotonic => point.GetSumDouble(),
                MetricType.LongGauge => point.GetGaugeLastValueLong(),
                MetricType.DoubleGauge => point.GetGaugeLastValueDouble(),
                _ => double.NaN,
            };
            Sample(text, name, labels, value);
        }
    }

    /// <summary>supermarket.publish.duration with unit ms becomes supermarket_publish_duration_ms.</summary>
    private static string Name(string name, string? unit)
    {
        var plain = new StringBuilder(name.Length + 8);
        foreach (var c in name)
        {
            plain.Append(char.IsAsciiLetterOrDigit(c) ? c : '_');
        }

        if (unit is { Length: > 0 } && !unit.StartsWith('{') && !name.EndsWith(unit, StringComparison.Ordinal))
        {
            plain.Append('_').Append(unit);
        }

        return plain.ToString();
    }

    private static string Labels(ReadOnlyTagCollection tags)
    {
        var labels = new StringBuilder();
        foreach (var tag in tags)
        {
            var value = Convert.ToString(tag.Value, CultureInfo.InvariantCulture) ?? "";
            labels.Append(labels.Length == 0 ? "" : ",").Append(Name(tag.Key, null)).Append("=\"")
                .Append(value.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal).Replace("\n", "\\n", StringComparison.Ordinal))
                .Append('"');
        }

        return labels.ToString();
    }

    private static string WithLabel(string labels, string name, string value) =>
        (labels.Length == 0 ? "" : labels + ",") + name + "=\"" + value + "\"";

    private static void Sample(StringBuilder text, string name, string labels, double value)
    {
        text.Append(name);
        if (labels.Length > 0)
        {
            text.Append('{').Append(labels).Append('}');
        }

        text.Append(' ').AppendLine(Number(value));
    }

    private static string Number(double value) => value.ToString("R", CultureInfo.InvariantCulture);
}
