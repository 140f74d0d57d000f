namespace Supermarket.LoadTest.Chaos;

/// <summary>scripts/faults.sh: <c>prepare</c>, <c>inject</c>, <c>repair</c> and <c>recovered</c> of a scenario, by exit
/// code; what it prints goes to the run's faults.log.</summary>
public sealed class FaultScript(string repository, bool inContainers, string log) : IFaults
{
    public async Task PrepareAsync(ChaosScenario scenario, CancellationToken cancellationToken)
    {
        if (await RunAsync("prepare", scenario, cancellationToken) != 0)
        {
            throw new InvalidOperationException($"scripts/faults.sh could not prepare {scenario.Name}; see {log}");
        }
    }

    public async Task InjectAsync(ChaosScenario scenario, CancellationToken cancellationToken)
    {
        if (await RunAsync("inject", scenario, cancellationToken) != 0)
        {
            throw new InvalidOperationException($"scripts/faults.sh could not inject {scenario.Name}; see {log}");
        }
    }

    public async Task RepairAsync(ChaosScenario scenario, CancellationToken cancellationToken)
    {
        if (await RunAsync("repair", scenario, cancellationToken) != 0)
        {
            throw new InvalidOperationException($"scripts/faults.sh could not repair {scenario.Name}; see {log}");
        }
    }

    public async Task<bool> RecoveredAsync(ChaosScenario scenario, CancellationToken cancellationToken) =>
        await RunAsync("recovered", scenario, cancellationToken) == 0;

    private Task<int> RunAsync(string verb, ChaosScenario scenario, CancellationToken cancellationToken) =>
        ChildProcess.RunAsync(Path.Combine(repository, "scripts", "faults.sh"),
            [.. inContainers ? ["--in-containers"] : Array.Empty<string>(), verb, scenario.Name], log, cancellationToken);
}
