using System.Diagnostics.Metrics;
using Azure.Monitor.OpenTelemetry.Exporter;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using OpenTelemetry;
using OpenTelemetry.Exporter;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.ServiceDefaults.Observability;

public static class TelemetryRegistration
{
    /// <summary>The name of the meter (and activity source) every Supermarket instrument belongs to.</summary>
    public const string MeterName = "Supermarket";

    /// <summary>Where Application Insights takes telemetry, under the name Azure gives it (infra/ sets it on every
    /// container app); unset, nothing goes to Azure.</summary>
    public const string AzureMonitorConnectionString = "APPLICATIONINSIGHTS_CONNECTION_STRING";
    public const string StandardOtlpEndpoint = "OTEL_EXPORTER_OTLP_ENDPOINT";

    /// <summary>The meters and activity sources of the libraries on a purchase's path: MassTransit (publish,
    /// consume, request) and MySqlConnector (its pool's <c>db.client.connections.*</c>, each command).</summary>
    private static readonly string[] LibrarySources = ["MassTransit", "MySqlConnector"];

    /// <summary>ASP.NET Core's meters that say how the service is doing: its requests (<c>http.server.*</c>), its
    /// connections, the exceptions it handled and the requests its rate limiter refused. Not its routing,
    /// authentication, authorization or memory pool meters, which <c>AddAspNetCoreInstrumentation</c> would add too:
    /// each records on every request (or every buffer) figures nobody here reads, on the purchase's hot path
    /// (docs/performance.md, "The purchase's cost").</summary>
    private static readonly string[] AspNetCoreMeters =
    [
        "Microsoft.AspNetCore.Hosting", "Microsoft.AspNetCore.Server.Kestrel", "Microsoft.AspNetCore.Diagnostics",
        "Microsoft.AspNetCore.RateLimiting",
    ];

    /// <summary>
    /// OpenTelemetry the stock way: this system's meter, the libraries', ASP.NET Core's (those above), HttpClient's and the
    /// runtime's, read on each GET /metrics by the Prometheus exporter and pushed over OTLP when
    /// Telemetry:OtlpEndpoint is set, or to Azure Monitor when APPLICATIONINSIGHTS_CONNECTION_STRING is (the Azure
    /// deployment). With either a purchase is also traced, from its POST through the broker to the writer's
    /// transaction; without both nothing is traced, so no span costs the hot path.
    /// </summary>
    public static IHostApplicationBuilder AddSupermarketTelemetry(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<TelemetryOptions>(builder.Configuration, TelemetryOptions.Section);
        var otlp = builder.Configuration.GetValidated<TelemetryOptions>(TelemetryOptions.Section);

        var telemetry = builder.Services.AddOpenTelemetry()
            // Under an AppHost the dashboard knows each process by the name and instance the AppHost gives it
            // (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES); elsewhere a service is named for its application.
            .ConfigureResource(resource => resource.AddService(
                builder.Configuration["OTEL_SERVICE_NAME"] ?? builder.Environment.ApplicationName,
                autoGenerateServiceInstanceId: builder.Configuration["OTEL_RESOURCE_ATTRIBUTES"] is null))
            .WithMetrics(metrics => metrics
                .AddMeter(MeterName)
                .AddMeter(LibrarySources)
                .AddMeter(AspNetCoreMeters)
                .AddHttpClientInstrumentation()
                .AddRuntimeInstrumentation()
                // A scrape is always read fresh: the tests and the load test compare two scrapes taken moments apart.
                .AddPrometheusExporter(prometheus => prometheus.ScrapeResponseCacheDurationMilliseconds = 0));
        builder.Services.ConfigureOpenTelemetryMeterProvider((services, metrics) =>
            metrics.AddView(OnlyThisHost(services.GetRequiredService<IMeterFactory>())));
        // An Aspire AppHost names its dashboard's collector in OpenTelemetry's standard variable.
        var otlpEndpoint = otlp.OtlpEndpoint
            ?? (builder.Configuration[StandardOtlpEndpoint] is { Length: > 0 } standard ? new Uri(standard) : null);
        var azureMonitor = builder.Configuration[AzureMonitorConnectionString];
        if (otlpEndpoint is null && string.IsNullOrEmpty(azureMonitor))
        {
            return builder;
        }

        telemetry.WithTracing(tracing => tracing
            .SetSampler(new ParentBasedSampler(new TraceIdRatioBasedSampler(otlp.TraceSampleRatio)))
            .AddAspNetCoreInstrumentation()
            .AddHttpClientInstrumentation()
            .AddSource(MeterName)
            .AddSource(LibrarySources));
        if (otlpEndpoint is not null)
        {
            telemetry.UseOtlpExporter(otlp.OtlpProtocol, otlpEndpoint);
        }

        if (!string.IsNullOrEmpty(azureMonitor))
        {
            telemetry.UseAzureMonitorExporter(options => options.ConnectionString = azureMonitor);
        }

        return builder;
    }

    /// <summary>
    /// A provider listens to meters by name across the whole process, and a process may host several services (the
    /// integration tests host the API, the writer and the aggregator together, and start and stop more). OpenTelemetry
    /// merges same-named instruments into one stream, and drops that stream when any one of them is disposed, so one
    /// host's shutdown silently stopped another's counters (found: the API's answer counts vanished after a test host
    /// was disposed). Each host therefore keeps only the instruments of its own meter factory; static meters
    /// (MassTransit's, MySqlConnector's, the runtime's: no scope) stay.
    /// </summary>
    private static Func<Instrument, MetricStreamConfiguration?> OnlyThisHost(IMeterFactory meters) =>
        instrument => instrument.Meter.Scope is null || ReferenceEquals(instrument.Meter.Scope, meters) ? null : MetricStreamConfiguration.Drop;
}
