using OpenTelemetry.Exporter;

namespace Supermarket.ServiceDefaults.Observability;

/// <summary>Where telemetry goes besides the /metrics scrape. Section <c>Telemetry</c>.</summary>
public sealed class TelemetryOptions
{
    public const string Section = "Telemetry";

    /// <summary>An OpenTelemetry collector's OTLP address (for example <c>http://collector:4317</c> for gRPC); unset,
    /// OpenTelemetry's <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> (an Aspire AppHost's dashboard). When set, metrics and logs are pushed there too and traces are recorded (a purchase followed from its POST through
    /// the broker to its transaction); unset, nothing is traced and nothing is sent anywhere.</summary>
    public Uri? OtlpEndpoint { get; set; }

    /// <summary><c>Grpc</c> (port 4317 by convention) or <c>HttpProtobuf</c> (4318; the signal's path, such as
    /// /v1/traces, is appended to <see cref="OtlpEndpoint"/>).</summary>
    public OtlpExportProtocol OtlpProtocol { get; set; } = OtlpExportProtocol.Grpc;

    /// <summary>The share of purchases traced when a trace starts here (a POST without a sampled parent): one in a
    /// thousand. A caller's sampled <c>traceparent</c> is always followed. Every purchase traced halved the 256-store
    /// day under the AppHost (5,191 POST/s against 10,998 as bare processes: the API's spans, and the dashboard
    /// storing eight spans a purchase; docs/performance.md, "Levers in the code").</summary>
    [System.ComponentModel.DataAnnotations.Range(0.0, 1.0)]
    public double TraceSampleRatio { get; set; } = 0.001;
}
