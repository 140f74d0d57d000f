using System.Diagnostics.Metrics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using Supermarket.Hosting.Configuration;

namespace Supermarket.Hosting.Observability;

public static class MetricsRegistration
{
    /// <summary>The name of the meter every Supermarket instrument belongs to.</summary>
    public const string MeterName = "Supermarket";

    /// <summary>
    /// An OpenTelemetry meter provider over the Supermarket meter, with MassTransit's own meter alongside, read by
    /// <see cref="PrometheusExporter"/> and served by <see cref="MetricsEndpoint"/> on Metrics:Port (the workers); the
    /// API leaves that at 0 and maps /metrics on its own port.
    /// </summary>
    public static IServiceCollection AddSupermarketMetrics(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddMetrics();
        services.AddSingleton<PrometheusExporter>();
        services.AddSingleton(provider => Sdk.CreateMeterProviderBuilder()
            .AddMeter(MeterName, "MassTransit")
            .AddView(OnlyThisHost(provider.GetRequiredService<IMeterFactory>()))
            .AddReader(provider.GetRequiredService<PrometheusExporter>().Reader)
            .Build());
        services.AddValidatedOptions<MetricsOptions>(configuration, MetricsOptions.Section);
        services.AddHostedService<MetricsEndpoint>();

        return services;
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
