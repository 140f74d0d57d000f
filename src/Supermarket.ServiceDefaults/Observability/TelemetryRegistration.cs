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
    public const string MeterName = "Supermarket";

    /// <summary>Application Insights' connection string, as Azure names it (infra/ sets it).</summary>
    public const string AzureMonitorConnectionString = "APPLICATIONINSIGHTS_CONNECTION_STRING";
    public const string StandardOtlpEndpoint = "OTEL_EXPORTER_OTLP_ENDPOINT";

    private static readonly string[] LibrarySources = ["MassTransit", "MySqlConnector"];

    /// <summary>Not routing, authentication, authorization or memory pool meters: each records on the hot path what
    /// nobody reads (docs/performance.md, "The purchase's cost").</summary>
    private static readonly string[] AspNetCoreMeters =
    [
        "Microsoft.AspNetCore.Hosting", "Microsoft.AspNetCore.Server.Kestrel", "Microsoft.AspNetCore.Diagnostics",
        "Microsoft.AspNetCore.RateLimiting",
    ];

    /// <summary>Metrics always (on /metrics); traces only with an OTLP endpoint or Azure Monitor, so that otherwise no
    /// span costs the hot path.</summary>
    public static IHostApplicationBuilder AddSupermarketTelemetry(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<TelemetryOptions>(builder.Configuration, TelemetryOptions.Section);
        var otlp = builder.Configuration.GetValidated<TelemetryOptions>(TelemetryOptions.Section);

        var telemetry = builder.Services.AddOpenTelemetry()
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

    /// <summary>Hosts sharing a process (the tests) share same-named streams, and one host's disposal drops them for
    /// all: each host keeps its own meter factory's instruments, and the static meters.</summary>
    private static Func<Instrument, MetricStreamConfiguration?> OnlyThisHost(IMeterFactory meters) =>
        instrument => instrument.Meter.Scope is null || ReferenceEquals(instrument.Meter.Scope, meters) ? null : MetricStreamConfiguration.Drop;
}
