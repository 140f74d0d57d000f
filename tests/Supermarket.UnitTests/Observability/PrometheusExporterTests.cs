using System.Diagnostics.Metrics;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.UnitTests.Observability;

public sealed class PrometheusExporterTests
{
    [Fact]
    public void Counters_and_histograms_render_in_the_prometheus_text_format()
    {
        var meterName = "Supermarket.Test." + Guid.NewGuid().ToString("N");
        using var meter = new Meter(meterName);
        using var exporter = new PrometheusExporter();
        using var provider = Sdk.CreateMeterProviderBuilder().AddMeter(meterName).AddReader(exporter.Reader).Build();
        var answered = meter.CreateCounter<long>("supermarket.purchases.answered", "{purchase}", "answers");
        var took = meter.CreateHistogram("supermarket.publish.duration", "ms", "publish",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [1, 10] });

        answered.Add(2, new KeyValuePair<string, object?>("status", 201));
        answered.Add(1, new KeyValuePair<string, object?>("status", 400));
        took.Record(0.5);
        took.Record(5);
        took.Record(50);
        var text = exporter.Scrape().Split('\n');

        Assert.Contains("# TYPE supermarket_purchases_answered_total counter", text);
        Assert.Contains("supermarket_purchases_answered_total{status=\"201\"} 2", text);
        Assert.Contains("supermarket_purchases_answered_total{status=\"400\"} 1", text);
        Assert.Contains("# TYPE supermarket_publish_duration_ms histogram", text);
        Assert.Contains("supermarket_publish_duration_ms_bucket{le=\"1\"} 1", text);
        Assert.Contains("supermarket_publish_duration_ms_bucket{le=\"10\"} 2", text);
        Assert.Contains("supermarket_publish_duration_ms_bucket{le=\"+Inf\"} 3", text);
        Assert.Contains("supermarket_publish_duration_ms_sum 55.5", text);
        Assert.Contains("supermarket_publish_duration_ms_count 3", text);
    }
}
