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

/// <summary>What every Supermarket process is: a host with health checks, metrics, telemetry and a clock.</summary>
public static class ServiceDefaultsExtensions
{
    /// <summary>Health checks tagged with this decide /health/ready.</summary>
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

    /// <summary>/health/live runs no check, so a slow broker never gets a live process restarted; /health/ready
    /// answers a Degraded check (a lost connection) with 503, not ASP.NET Core's 200.</summary>
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
