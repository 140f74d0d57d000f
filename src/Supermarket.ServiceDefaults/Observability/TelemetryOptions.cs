using OpenTelemetry.Exporter;

namespace Supermarket.ServiceDefaults.Observability;

/// <summary>Where telemetry goes besides the /metrics scrape. Section <c>Telemetry</c>.</summary>
public sealed class TelemetryOptions
{
    public const string Section = "Telemetry";

    public Uri? OtlpEndpoint { get; set; }

    public OtlpExportProtocol OtlpProtocol { get; set; } = OtlpExportProtocol.Grpc;

    /// <summary>Low: tracing all purchases costs throughput (docs/performance.md, "Levers in the code").</summary>
    [System.ComponentModel.DataAnnotations.Range(0.0, 1.0)]
    public double TraceSampleRatio { get; set; } = 0.001;
}
