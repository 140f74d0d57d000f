using Microsoft.Extensions.Hosting;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;

namespace Supermarket.ServiceDefaults.Observability;

/// <summary>
/// Builds the providers when the host starts: a provider only listens from when it is built, and nothing else asks
/// for it before the first scrape, so counts from before that would be lost. The container disposes them (flushing
/// what OTLP has not sent yet) when the host stops.
/// </summary>
internal sealed class TelemetryProviders(MeterProvider meters, IEnumerable<TracerProvider> tracers) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        _ = (meters, tracers.ToList());
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
