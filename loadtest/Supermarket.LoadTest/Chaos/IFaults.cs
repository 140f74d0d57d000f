namespace Supermarket.LoadTest.Chaos;

/// <summary>A scenario's fault, its repair, and the probe that says the repaired part works again: scripts/faults.sh
/// (<see cref="FaultScript"/>); the seam the chaos run's fast tests replace.</summary>
public interface IFaults
{
    Task InjectAsync(ChaosScenario scenario, CancellationToken cancellationToken);

    Task RepairAsync(ChaosScenario scenario, CancellationToken cancellationToken);

    Task<bool> RecoveredAsync(ChaosScenario scenario, CancellationToken cancellationToken);
}
