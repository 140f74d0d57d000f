namespace Supermarket.ServiceDefaults.WarmUp;

/// <summary>Work a service does once as it starts, before <c>/health/ready</c> passes, so that its first real requests
/// find their code compiled instead of paying the JIT (docs/architecture.md, "A warm start").</summary>
public interface IStartupWarmUp
{
    /// <summary>Runs once Kestrel listens; it must leave no trace in the system's data.</summary>
    Task RunAsync(CancellationToken cancellation);
}
