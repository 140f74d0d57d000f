namespace Supermarket.ServiceDefaults.Observability;

/// <summary>Where telemetry goes besides the /metrics scrape. Section <c>Telemetry</c>.</summary>
public sealed class TelemetryOptions
{
    public const string Section = "Telemetry";

    /// <summary>An OpenTelemetry collector's OTLP/gRPC address (for example <c>http://collector:4317</c>). When set,
    /// metrics are pushed there too and traces are recorded (a purchase followed from its POST through the broker to
    /// its transaction); unset, nothing is traced and nothing is sent anywhere.</summary>
    public Uri? OtlpEndpoint { get; set; }
}
