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
            .AddReader(provider.GetRequiredService<PrometheusExporter>().Reader)
            .Build());
        services.AddValidatedOptions<MetricsOptions>(configuration, MetricsOptions.Section);
        services.AddHostedService<MetricsEndpoint>();

        return services;
    }
}
