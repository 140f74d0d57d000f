namespace Supermarket.LoadTest.Chaos;

/// <summary>What a scenario's fault needs before its day, the fault, its repair, and the probe that says the repaired
/// part works again: scripts/faults.sh (<see cref="FaultScript"/>); the seam the chaos run's fast tests replace.</summary>
public interface IFaults
{
    Task PrepareAsync(ChaosScenario scenario, CancellationToken cancellationToken);

    Task InjectAsync(ChaosScenario scenario, CancellationToken cancellationToken);

    Task RepairAsync(ChaosScenario scenario, CancellationToken cancellationToken);

    Task<bool> RecoveredAsync(ChaosScenario scenario, CancellationToken cancellationToken);
}
