extern alias AppHost;

using System.Diagnostics;
using System.Runtime.InteropServices;
using Aspire.Hosting;
using Aspire.Hosting.ApplicationModel;
using Aspire.Hosting.Testing;
using Microsoft.Extensions.DependencyInjection;

[assembly: AssemblyFixture(typeof(Supermarket.IntegrationTests.Infrastructure.TestedAppHost))]

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>
/// The system as users run it: this checkout's AppHost (src/Supermarket.AppHost), started once for the whole run by
/// Aspire.Hosting.Testing with the dashboard on, and stopped at its end. Its RabbitMQ and MariaDB are the ones every
/// integration test uses (the tests keep a vhost and a database of their own beside the system's); its API, writer and
/// aggregator are the system the dashboard and README tests look at. Outages are injected into its resources, as a
/// user of the dashboard would: stop and start through Aspire's commands, pause with a signal to the process (which
/// Aspire has no command for).
/// </summary>
public sealed class TestedAppHost : IAsyncLifetime
{
    /// <summary>What the system must have before any test runs: every long-running resource healthy.</summary>
    private static readonly string[] Healthy = ["rabbitmq", "mariadb", "purchases-writer", "sales-aggregator", "api"];

    private static readonly TimeSpan StartPatience = TimeSpan.FromMinutes(5);
    private static readonly TimeSpan StopPatience = TimeSpan.FromMinutes(2);

    private DistributedApplication? _app;

    private DistributedApplication App => _app ?? throw new InvalidOperationException("The AppHost has not started.");

    /// <summary>The system's public API (the resource named api).</summary>
    public Uri Api => App.GetEndpoint("api", "http");

    /// <summary>The dashboard's login address: the browser token in it signs the browser in.</summary>
    public Uri Dashboard { get; private set; } = null!;

    public async ValueTask InitializeAsync()
    {
        // The dashboard as users see it, with its login token (on ports of its own, so that it never meets another's).
        var builder = await DistributedApplicationTestingBuilder.CreateAsync<AppHost::Projects.Supermarket_AppHost>(
            new DistributedApplicationTestingBuilderOptions { EnableDashboard = true }, []);
        _app = await builder.BuildAsync();
        using var patience = new CancellationTokenSource(StartPatience);
        await _app.StartAsync(patience.Token);
        await HealthyAsync(patience.Token);
        await TestsOwnPlaces.AddAsync(_app, patience.Token);
        Dashboard = await _app.GetDashboardUrlAsync(patience.Token);
    }

    /// <summary>Returns once every long-running resource is healthy again, as the AppHost sees it; fails naming the
    /// first that is not within <see cref="StartPatience"/>. Aspire checks a healthy resource only every 30 s and an
    /// unhealthy one at growing intervals, so after a test's outage (the broker stopped and started: every service's
    /// bus reconnects) its view lags the services' own /health/ready by up to that.</summary>
    public async Task HealthyAsync()
    {
        using var patience = new CancellationTokenSource(StartPatience);
        await HealthyAsync(patience.Token);
    }

    private async Task HealthyAsync(CancellationToken patience)
    {
        foreach (var resource in Healthy)
        {
            try
            {
                await App.ResourceNotifications.WaitForResourceHealthyAsync(resource, patience);
            }
            catch (OperationCanceledException) when (patience.IsCancellationRequested)
            {
                var snapshot = Snapshot(resource);
                Assert.Fail($"{resource} is {snapshot.State?.Text}, {snapshot.HealthStatus?.ToString() ?? "not checked yet"} after {StartPatience.TotalMinutes} min");
            }
        }
    }

    /// <summary>Stops the system and returns once every process it ran is gone, so that what runs next (./test.sh
    /// brings the system up again with ./run.sh) finds the ports free. Bounded: what is left then is killed.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_app is null)
        {
            return;
        }

        var processes = Processes().ToList();
        using (var patience = new CancellationTokenSource(StopPatience))
        {
            await _app.StopAsync(patience.Token);
        }

        await _app.DisposeAsync();
        var deadline = DateTime.UtcNow + StopPatience;
        foreach (var process in processes)
        {
            while (Alive(process) && DateTime.UtcNow < deadline)
            {
                await Task.Delay(200);
            }

            if (Alive(process))
            {
                Kill(process, Sigkill);
            }
        }
    }

    /// <summary>Every resource the dashboard lists (parameters aside): its name, state, health (null without a health
    /// check) and, once it ended, its exit code.</summary>
    public IReadOnlyList<(string Name, string State, string? Health, int? ExitCode)> Resources()
    {
        var model = App.Services.GetRequiredService<DistributedApplicationModel>();
        return [.. model.Resources
            .Where(resource => resource is not ParameterResource)
            .Select(resource => (resource.Name, Snapshot: Snapshot(resource.Name)))
            .Where(resource => !resource.Snapshot.IsHidden)
            .Select(resource => (resource.Name, resource.Snapshot.State?.Text ?? "", resource.Snapshot.HealthStatus?.ToString(), resource.Snapshot.ExitCode))];
    }

    /// <summary>A resource stopped, as the dashboard's Stop does; returns once its process has exited.</summary>
    public async Task StopAsync(string resource)
    {
        await ExecuteAsync(resource, KnownResourceCommands.StopCommand);
        using var patience = new CancellationTokenSource(StopPatience);
        await App.ResourceNotifications.WaitForResourceAsync(resource, KnownResourceStates.TerminalStates, patience.Token);
    }

    /// <summary>A stopped resource started again; returns once it is healthy.</summary>
    public async Task StartAsync(string resource)
    {
        await ExecuteAsync(resource, KnownResourceCommands.StartCommand);
        using var patience = new CancellationTokenSource(StartPatience);
        await App.ResourceNotifications.WaitForResourceHealthyAsync(resource, patience.Token);
    }

    /// <summary>A resource's process (and what it runs) stops answering without closing a connection, as a process
    /// stalled on its disk does; <see cref="ResumeAsync"/> lets it go on.</summary>
    public void Pause(string resource) => Signal(resource, Sigstop);

    public void Resume(string resource) => Signal(resource, Sigcont);

    /// <summary>A memory alarm: RabbitMQ stops reading from publishers (its high watermark at nothing) until
    /// <see cref="UnblockPublishersAsync"/> puts RabbitMQ's default (0.4 of the memory) back.</summary>
    public Task BlockPublishersAsync() => RabbitMqCtlAsync("set_vm_memory_high_watermark", "0");

    public Task UnblockPublishersAsync() => RabbitMqCtlAsync("set_vm_memory_high_watermark", "0.4");

    /// <summary>rabbitmqctl against the single node, as its own environment (its HOME holds the Erlang cookie).</summary>
    private async Task RabbitMqCtlAsync(params string[] arguments)
    {
        var environment = Snapshot("rabbitmq").EnvironmentVariables.ToDictionary(variable => variable.Name, variable => variable.Value);
        var start = new ProcessStartInfo("/usr/lib/rabbitmq/bin/rabbitmqctl")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            Environment = { ["HOME"] = environment["HOME"], ["RABBITMQ_NODENAME"] = environment["RABBITMQ_NODENAME"] },
        };
        foreach (var argument in (string[])["-q", .. arguments])
        {
            start.ArgumentList.Add(argument);
        }

        using var rabbitmqctl = Process.Start(start)!;
        var output = rabbitmqctl.StandardOutput.ReadToEndAsync();
        var errors = rabbitmqctl.StandardError.ReadToEndAsync();
        await rabbitmqctl.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(1));
        Assert.True(rabbitmqctl.ExitCode == 0, $"rabbitmqctl {string.Join(' ', arguments)} failed: {await output}{await errors}");
    }

    private async Task ExecuteAsync(string resource, string command)
    {
        var result = await App.ResourceCommands.ExecuteCommandAsync(ResourceId(resource), command);
        Assert.True(result.Success, $"{command} of {resource} failed: {result.Message}");
    }

    private string ResourceId(string resource) =>
        App.ResourceNotifications.TryGetCurrentState(resource, out var current)
            ? current.ResourceId
            : throw new InvalidOperationException($"The AppHost has no resource {resource}.");

    private CustomResourceSnapshot Snapshot(string resource) =>
        App.ResourceNotifications.TryGetCurrentState(resource, out var current)
            ? current.Snapshot
            : throw new InvalidOperationException($"The AppHost has no resource {resource}.");

    private const int Sigkill = 9, Sigcont = 18, Sigstop = 19;

    /// <summary>The signal to the process DCP started for the resource and to every process under it (RabbitMQ's
    /// start script runs the Erlang VM).</summary>
    private void Signal(string resource, int signal)
    {
        var pid = Pid(resource) ?? throw new InvalidOperationException($"{resource} has no process.");
        foreach (var process in WithDescendants(pid))
        {
            Assert.True(Kill(process, signal) == 0, $"signal {signal} to {resource}'s process {process} failed: errno {Marshal.GetLastPInvokeError()}");
        }
    }

    private int? Pid(string resource) =>
        Snapshot(resource).Properties.SingleOrDefault(property => property.Name == "executable.pid")?.Value switch
        {
            null => null,
            int number => number,
            var other => int.Parse(other.ToString()!, System.Globalization.CultureInfo.InvariantCulture),
        };

    /// <summary>Every process the AppHost's resources run now.</summary>
    private IEnumerable<int> Processes() =>
        App.Services.GetRequiredService<DistributedApplicationModel>().Resources
            .Select(resource => App.ResourceNotifications.TryGetCurrentState(resource.Name, out _) ? Pid(resource.Name) : null)
            .OfType<int>()
            .SelectMany(WithDescendants);

    /// <summary>PID 1 here does not reap orphans: a zombie counts as gone.</summary>
    private static bool Alive(int pid) => ProcFile($"/proc/{pid}/stat") is { } stat && !stat.Split(") ").Last().StartsWith('Z');

    /// <summary>A file of /proc, or null once its process is gone.</summary>
    private static string? ProcFile(string path)
    {
        try
        {
            return File.ReadAllText(path);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    private static IEnumerable<int> WithDescendants(int pid)
    {
        yield return pid;
        var children = ProcFile($"/proc/{pid}/task/{pid}/children") ?? "";
        foreach (var child in children.Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(int.Parse))
        {
            foreach (var descendant in WithDescendants(child))
            {
                yield return descendant;
            }
        }
    }

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int pid, int signal);
}
