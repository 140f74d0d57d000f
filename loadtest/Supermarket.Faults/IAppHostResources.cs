namespace Supermarket.Faults;

/// <summary>
/// The running AppHost's resources, as a fault acts on them: what each one is now, and the dashboard's Stop and Start.
/// Two AppHosts implement it: one started by <c>./run.sh</c>, reached through the Aspire CLI (<see cref="AspireCli"/>,
/// the chaos run's), and the one the integration tests start in their own process (their <c>TestedAppHost</c>).
/// </summary>
public interface IAppHostResources
{
    /// <summary>Every resource the AppHost runs now (its parameters aside).</summary>
    Task<IReadOnlyList<AppHostResource>> ListAsync(CancellationToken cancellationToken);

    Task<AppHostResource> DescribeAsync(string resource, CancellationToken cancellationToken);

    /// <summary>The dashboard's Stop or Start of a resource; returns once the AppHost has taken the command, not once
    /// the resource is down or up (<see cref="WaitAsync"/>).</summary>
    Task CommandAsync(string resource, ResourceCommand command, CancellationToken cancellationToken);

    /// <summary>Returns once the resource is <paramref name="status"/>; throws <see cref="TimeoutException"/> past
    /// <paramref name="patience"/>.</summary>
    Task WaitAsync(string resource, ResourceStatus status, TimeSpan patience, CancellationToken cancellationToken);
}

public enum ResourceCommand
{
    Stop,
    Start,
}

public enum ResourceStatus
{
    Healthy,
    Down,
}

/// <summary>A resource as the dashboard shows it.</summary>
/// <param name="Pid">The process the AppHost started for it; null while it has none.</param>
/// <param name="Environment">The environment the AppHost gave it (a RabbitMQ node's HOME holds its Erlang cookie).</param>
/// <param name="Urls">Its endpoints by name (a service's <c>management</c> one).</param>
/// <param name="WorkingDirectory">Where an executable runs (MariaDB's folder, with the options file it was started with).</param>
public sealed record AppHostResource(string Name, string? State, string? Health, int? Pid,
    IReadOnlyDictionary<string, string> Environment, IReadOnlyDictionary<string, Uri> Urls, string? WorkingDirectory)
{
    public bool Healthy => Health == "Healthy";
}
