namespace Supermarket.LoadTest.Chaos;

/// <summary>What a scenario's fault needs before its day, the fault, its repair, and the probe that says the repaired
/// part works again: <see cref="LocalFaults"/> on the AppHost's processes, <see cref="ContainerFaults"/> on the
/// containers; the seam the chaos run's fast tests replace.</summary>
public interface IFaults
{
    Task PrepareAsync(ChaosScenario scenario, CancellationToken cancellationToken);

    Task InjectAsync(ChaosScenario scenario, CancellationToken cancellationToken);

    Task RepairAsync(ChaosScenario scenario, CancellationToken cancellationToken);

    Task<bool> RecoveredAsync(ChaosScenario scenario, CancellationToken cancellationToken);

    /// <summary>What every part of the system printed so far, timestamped: a failed day's evidence, kept beside its
    /// log.</summary>
    Task<string> SystemLogsAsync(CancellationToken cancellationToken);
}
