using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Supermarket.ServiceDefaults.About;
using Supermarket.ServiceDefaults.Configuration;
using Supermarket.ServiceDefaults.Health;
using Supermarket.ServiceDefaults.Management;
using Supermarket.ServiceDefaults.Observability;
using Supermarket.ServiceDefaults.WarmUp;

namespace Supermarket.ServiceDefaults;

/// <summary>What every Supermarket process is, whatever else it does: a small Kestrel host with health checks,
/// metrics, optional OTLP telemetry and the system clock.</summary>
public static class ServiceDefaultsExtensions
{
    /// <summary>Health checks tagged with this decide /health/ready; the others only /health (all of them).</summary>
    public const string ReadyTag = "ready";

    public static IHostApplicationBuilder AddServiceDefaults(this IHostApplicationBuilder builder)
    {
        builder.AddSupermarketTelemetry();
        builder.AddManagementPort();
        builder.Services.TryAddSingleton(TimeProvider.System);
        builder.Services.AddValidatedOptions<WarmUpOptions>(builder.Configuration, WarmUpOptions.Section);
        builder.Services.AddSingleton<StartupWarmUps>();
        builder.Services.AddHostedService(services => services.GetRequiredService<StartupWarmUps>());
        builder.Services.AddHealthChecks().AddCheck<StartupWarmUps>("warm-up", tags: [ReadyTag]);
        return builder;
    }

    /// <summary>
    /// <c>/health/live</c>: the process answers (no check runs, so a slow broker never gets a live process restarted).
    /// <c>/health/ready</c>: every check tagged <see cref="ReadyTag"/> passes (MassTransit tags its bus check so:
    /// connected to the broker, every receive endpoint consuming). A Degraded endpoint, one that lost its connection,
    /// is 503 here; ASP.NET Core would answer it with 200. It answers JSON: each check's status and what it says. <c>/metrics</c>: OpenTelemetry's Prometheus exporter. <c>/about</c>: the
    /// service and its settings (<see cref="AboutEndpoint"/>). All four on the management port only, when the process
    /// has one (<see cref="ManagementOptions"/>).
    /// </summary>
    public static WebApplication MapDefaultEndpoints(this WebApplication app)
    {
        app.UseManagementPort();
        var management = app.MapGroup("").WithMetadata(ManagementPort.Endpoint.Marker);
        management.MapHealthChecks("/health/live", new HealthCheckOptions { Predicate = _ => false });
        management.MapHealthChecks("/health/ready", new HealthCheckOptions
        {
            Predicate = check => check.Tags.Contains(ReadyTag),
            ResultStatusCodes = { [HealthStatus.Degraded] = StatusCodes.Status503ServiceUnavailable },
            ResponseWriter = HealthReportJson.WriteAsync,
        });
        management.MapPrometheusScrapingEndpoint();
        management.MapAbout();
        return app;
    }
}
