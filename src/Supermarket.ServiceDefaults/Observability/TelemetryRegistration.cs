using System.Diagnostics.Metrics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;
using Supermarket.ServiceDefaults.Configuration;

namespace Supermarket.ServiceDefaults.Observability;

public static class TelemetryRegistration
{
    /// <summary>The name of the meter (and activity source) every Supermarket instrument belongs to.</summary>
    public const string MeterName = "Supermarket";

    /// <summary>
    /// An OpenTelemetry meter provider over the Supermarket meter, with MassTransit's alongside, read by
    /// <see cref="PrometheusExporter"/> on each GET /metrics and pushed over OTLP when Telemetry:OtlpEndpoint is set;
    /// with that endpoint, a tracer provider too. Built with <c>Sdk.Create…</c> because OpenTelemetry's hosting
    /// package is not in the registry here; <see cref="TelemetryProviders"/> builds them when the host starts.
    /// </summary>
    public static IHostApplicationBuilder AddSupermarketTelemetry(this IHostApplicationBuilder builder)
    {
        builder.Services.AddValidatedOptions<TelemetryOptions>(builder.Configuration, TelemetryOptions.Section);
        var otlp = builder.Configuration.GetSection(TelemetryOptions.Section).Get<TelemetryOptions>()?.OtlpEndpoint;
        var service = ResourceBuilder.CreateDefault().AddService(builder.Environment.ApplicationName);

        builder.Services.AddMetrics();
        builder.Services.AddSingleton<PrometheusExporter>();
        builder.Services.AddSingleton(provider =>
        {
            var meters = Sdk.CreateMeterProviderBuilder()
                .SetResourceBuilder(service)
                .AddMeter(MeterName, "MassTransit")
                .AddView(OnlyThisHost(provider.GetRequiredService<IMeterFactory>()))
                .AddReader(provider.GetRequiredService<PrometheusExporter>().Reader);
            if (otlp is not null)
            {
                meters.AddOtlpExporter(exporter => exporter.Endpoint = otlp);
            }

            return meters.Build();
        });
        if (otlp is not null)
        {
            builder.Services.AddSingleton(_ => Sdk.CreateTracerProviderBuilder()
                .SetResourceBuilder(service)
                // ASP.NET Core's own source (a POST, a GET), MassTransit's (publish, consume, request) and ours.
                .AddSource("Microsoft.AspNetCore", "MassTransit", MeterName)
                .AddOtlpExporter(exporter => exporter.Endpoint = otlp)
                .Build());
        }

        builder.Services.AddHostedService<TelemetryProviders>();
        return builder;
    }

    /// <summary>
    /// A provider listens to meters by name across the whole process, and a process may host several services (the
    /// integration tests host the API, the writer and the aggregator together, and start and stop more). OpenTelemetry
    /// merges same-named instruments into one stream, and drops that stream when any one of them is disposed, so one
    /// host's shutdown silently stopped another's counters (found: the API's answer counts vanished after a test host
    /// was disposed). Each host therefore keeps only the instruments of its own meter factory; MassTransit's meter is
    /// static (no scope) and stays.
    /// </summary>
    private static Func<Instrument, MetricStreamConfiguration?> OnlyThisHost(IMeterFactory meters) =>
        instrument => instrument.Meter.Scope is null || ReferenceEquals(instrument.Meter.Scope, meters) ? null : MetricStreamConfiguration.Drop;
}
