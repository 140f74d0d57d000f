namespace Supermarket.ServiceDefaults.WarmUp;

/// <summary>Work done once at start, before /health/ready passes, so the first real requests find their code compiled
/// (docs/architecture.md, "A warm start").</summary>
public interface IStartupWarmUp
{
    /// <summary>Runs once Kestrel listens; it must leave no trace in the system's data.</summary>
    Task RunAsync(CancellationToken cancellation);
}
