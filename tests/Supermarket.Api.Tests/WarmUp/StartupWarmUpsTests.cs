using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Supermarket.ServiceDefaults.WarmUp;

namespace Supermarket.Api.Tests.WarmUp;

/// <summary>What /health/ready says while a service warms up: not ready until its warm-ups end, and ready once they
/// end however they end (done, failed, or past WarmUp:Bound), so a warm-up can delay a service but never keep it down.</summary>
public sealed class StartupWarmUpsTests
{
    [Fact]
    public async Task Not_ready_until_the_warm_up_ends_then_ready()
    {
        var warmUp = new HeldWarmUp(_ => Task.CompletedTask);
        using var warmUps = Start(warmUp, TimeSpan.FromSeconds(30));

        await warmUp.Started.Task.WaitAsync(TimeSpan.FromSeconds(10));
        Assert.Equal(HealthStatus.Unhealthy, (await warmUps.CheckHealthAsync(new HealthCheckContext())).Status);
        warmUp.Release.SetResult();
        Assert.Equal(HealthStatus.Healthy, await ReadyWithinAsync(warmUps));
    }

    [Fact]
    public async Task A_failed_warm_up_leaves_the_service_ready()
    {
        var warmUp = new HeldWarmUp(_ => throw new InvalidOperationException("refused"));
        using var warmUps = Start(warmUp, TimeSpan.FromSeconds(30));

        warmUp.Release.SetResult();
        Assert.Equal(HealthStatus.Healthy, await ReadyWithinAsync(warmUps));
    }

    [Fact]
    public async Task A_warm_up_past_its_bound_leaves_the_service_ready()
    {
        var warmUp = new HeldWarmUp(_ => Task.CompletedTask);
        using var warmUps = Start(warmUp, TimeSpan.FromSeconds(1));

        // Never released: only the bound ends it.
        Assert.Equal(HealthStatus.Healthy, await ReadyWithinAsync(warmUps));
    }

    private static StartupWarmUps Start(IStartupWarmUp warmUp, TimeSpan bound)
    {
        var lifetime = new StartedLifetime();
        var warmUps = new StartupWarmUps([warmUp], lifetime, Options.Create(new WarmUpOptions { Bound = bound }), NullLogger<StartupWarmUps>.Instance);
        _ = warmUps.StartAsync(CancellationToken.None);
        lifetime.Start();
        return warmUps;
    }

    private static async Task<HealthStatus> ReadyWithinAsync(StartupWarmUps warmUps)
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
        HealthStatus status;
        while ((status = (await warmUps.CheckHealthAsync(new HealthCheckContext())).Status) != HealthStatus.Healthy && DateTime.UtcNow < deadline)
        {
            await Task.Delay(20);
        }

        return status;
    }

    private sealed class HeldWarmUp(Func<CancellationToken, Task> then) : IStartupWarmUp
    {
        public TaskCompletionSource Started { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public TaskCompletionSource Release { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public async Task RunAsync(CancellationToken cancellation)
        {
            Started.SetResult();
            await Release.Task.WaitAsync(cancellation);
            await then(cancellation);
        }
    }

    private sealed class StartedLifetime : IHostApplicationLifetime
    {
        private readonly CancellationTokenSource _started = new();

        public CancellationToken ApplicationStarted => _started.Token;

        public CancellationToken ApplicationStopping => CancellationToken.None;

        public CancellationToken ApplicationStopped => CancellationToken.None;

        public void Start() => _started.Cancel();

        public void StopApplication()
        {
        }
    }
}
