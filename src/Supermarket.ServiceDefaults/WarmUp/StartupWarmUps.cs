using System.Diagnostics;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Supermarket.ServiceDefaults.WarmUp;

/// <summary>Runs the warm-ups, unhealthy on /health/ready until they end, so nothing reaches it cold.</summary>
public sealed class StartupWarmUps(IEnumerable<IStartupWarmUp> warmUps, IHostApplicationLifetime lifetime,
    IOptions<WarmUpOptions> options, ILogger<StartupWarmUps> logger) : BackgroundService, IHealthCheck
{
    private volatile bool _done;

    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(_done ? HealthCheckResult.Healthy() : HealthCheckResult.Unhealthy("warming up"));

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            if (options.Value.Enabled && warmUps.Any())
            {
                await WarmUpAsync(stoppingToken);
            }
        }
        finally
        {
            _done = true;
        }
    }

    private async Task WarmUpAsync(CancellationToken stopping)
    {
        // Kestrel listens once the host has started: a warm-up may send the service its own requests.
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using (lifetime.ApplicationStarted.Register(started.SetResult))
        {
            await started.Task.WaitAsync(stopping);
        }

        using var bounded = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        bounded.CancelAfter(options.Value.Bound);
        var watch = Stopwatch.StartNew();
        try
        {
            foreach (var warmUp in warmUps)
            {
                await warmUp.RunAsync(bounded.Token);
            }

            logger.LogInformation("Warmed up in {Milliseconds} ms: ready", watch.ElapsedMilliseconds);
        }
        catch (Exception exception) when (!stopping.IsCancellationRequested)
        {
            logger.LogWarning(exception, "The warm-up stopped after {Milliseconds} ms: ready, cold (WarmUp:Bound)", watch.ElapsedMilliseconds);
        }
    }
}
