extern alias AppHost;

using Aspire.Hosting;
using Aspire.Hosting.ApplicationModel;
using Aspire.Hosting.Testing;
using Supermarket.Faults;
using Microsoft.Extensions.DependencyInjection;

[assembly: AssemblyFixture(typeof(Supermarket.IntegrationTests.Infrastructure.TestedAppHost))]

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>
/// The system as users run it: this checkout's AppHost (src/Supermarket.AppHost), started once for the whole run by
/// Aspire.Hosting.Testing with the dashboard on, and stopped at its end. Its RabbitMQ and MariaDB are the ones every
/// integration test uses (the tests keep a vhost and a database of their own beside the system's); its API, writer and
/// aggregator are the system the dashboard and README tests look at. Outages are injected into its resources by
/// <see cref="Faults"/>, the chaos run's fault type: stop and start through Aspire's commands, as a user of the
/// dashboard would, pause with a signal to the process (which Aspire has no command for).
/// </summary>
public sealed class TestedAppHost : IAsyncLifetime, IAppHostResources
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
        await TestsOwnPlaces.AddAsync(Faults, patience.Token);
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
            while (ProcessTree.Alive(process) && DateTime.UtcNow < deadline)
            {
                await Task.Delay(200);
            }

            if (ProcessTree.Alive(process))
            {
                ProcessTree.Signal(process, ProcessTree.Kill);
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

    /// <summary>The faults the tests inject into this system (stop, start, pause, the broker's publishers blocked): the
    /// type the chaos run injects its faults with, on this AppHost's resources.</summary>
    public SystemFaults Faults => new(this);

    public Task<IReadOnlyList<AppHostResource>> ListAsync(CancellationToken cancellationToken) =>
        Task.FromResult<IReadOnlyList<AppHostResource>>([.. App.Services.GetRequiredService<DistributedApplicationModel>().Resources
            .Where(resource => resource is not ParameterResource && App.ResourceNotifications.TryGetCurrentState(resource.Name, out _))
            .Select(resource => Describe(resource.Name))]);

    public Task<AppHostResource> DescribeAsync(string resource, CancellationToken cancellationToken) => Task.FromResult(Describe(resource));

    public async Task CommandAsync(string resource, ResourceCommand command, CancellationToken cancellationToken)
    {
        var name = command == ResourceCommand.Stop ? KnownResourceCommands.StopCommand : KnownResourceCommands.StartCommand;
        var result = await App.ResourceCommands.ExecuteCommandAsync(ResourceId(resource), name, cancellationToken);
        if (!result.Success)
        {
            throw new InvalidOperationException($"{name} of {resource} failed: {result.Message}");
        }
    }

    public async Task WaitAsync(string resource, ResourceStatus status, TimeSpan patience, CancellationToken cancellationToken)
    {
        using var bound = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bound.CancelAfter(patience);
        try
        {
            if (status == ResourceStatus.Healthy)
            {
                await App.ResourceNotifications.WaitForResourceHealthyAsync(resource, bound.Token);
            }
            else
            {
                await App.ResourceNotifications.WaitForResourceAsync(resource, KnownResourceStates.TerminalStates, bound.Token);
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new TimeoutException($"{resource} was not {status.ToString().ToLowerInvariant()} within {patience.TotalSeconds:F0} s");
        }
    }

    private AppHostResource Describe(string resource)
    {
        var snapshot = Snapshot(resource);
        var model = App.Services.GetRequiredService<DistributedApplicationModel>().Resources.Single(r => r.Name == resource);
        return new AppHostResource(resource, snapshot.State?.Text, snapshot.HealthStatus?.ToString(), Pid(resource),
            snapshot.EnvironmentVariables.ToDictionary(variable => variable.Name, variable => variable.Value ?? ""),
            snapshot.Urls.Where(url => url.Name is not null).DistinctBy(url => url.Name).ToDictionary(url => url.Name!, url => new Uri(url.Url)),
            (model as ExecutableResource)?.WorkingDirectory);
    }

    private string ResourceId(string resource) =>
        App.ResourceNotifications.TryGetCurrentState(resource, out var current)
            ? current.ResourceId
            : throw new InvalidOperationException($"The AppHost has no resource {resource}.");

    private CustomResourceSnapshot Snapshot(string resource) =>
        App.ResourceNotifications.TryGetCurrentState(resource, out var current)
            ? current.Snapshot
            : throw new InvalidOperationException($"The AppHost has no resource {resource}.");

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
            .SelectMany(ProcessTree.WithDescendants);
}
