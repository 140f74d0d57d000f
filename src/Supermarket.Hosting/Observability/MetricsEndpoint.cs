using System.Net;
using System.Text;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OpenTelemetry.Metrics;

namespace Supermarket.Hosting.Observability;

/// <summary>
/// GET /metrics on a small port of a worker's own (the workers are not web hosts, and a Kestrel for one route would
/// be most of their memory). Takes the meter provider, so that it exists, and listens, from the start in every
/// process, including the API, which leaves the port at 0.
/// </summary>
public sealed class MetricsEndpoint(
    MeterProvider provider, PrometheusExporter exporter, IOptions<MetricsOptions> options, ILogger<MetricsEndpoint> logger)
    : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        _ = provider;
        var settings = options.Value;
        if (settings.Port == 0)
        {
            return;
        }

        using var listener = new HttpListener();
        listener.Prefixes.Add($"http://{settings.Host}:{settings.Port}/");
        try
        {
            listener.Start();
        }
        catch (HttpListenerException exception)
        {
            // Metrics are for operators; a taken port must not stop purchases from being stored or counted.
            logger.LogError(exception, "Cannot serve metrics on port {Port}; running without them", settings.Port);
            return;
        }

        logger.LogInformation("Metrics at http://{Host}:{Port}/metrics", settings.Host, settings.Port);
        using var stop = stoppingToken.Register(listener.Stop);
        while (!stoppingToken.IsCancellationRequested)
        {
            HttpListenerContext context;
            try
            {
                context = await listener.GetContextAsync();
            }
            catch (Exception) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }

            using var response = context.Response;
            if (context.Request.Url?.AbsolutePath != "/metrics")
            {
                response.StatusCode = 404;
                continue;
            }

            var body = Encoding.UTF8.GetBytes(exporter.Scrape());
            response.ContentType = "text/plain; version=0.0.4; charset=utf-8";
            response.ContentLength64 = body.Length;
            await response.OutputStream.WriteAsync(body, stoppingToken);
        }
    }
}
