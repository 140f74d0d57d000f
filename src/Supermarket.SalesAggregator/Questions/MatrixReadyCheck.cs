using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>Part of /health/ready: an aggregator still rebuilding its matrix would only let questions time out. Once
/// ready, it says how the start went (from a checkpoint or the whole ledger, and how many entries it read), which is
/// what shows a deployment's checkpoint survived a restart.</summary>
public sealed class MatrixReadyCheck(MatrixReadiness readiness) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(readiness.Ready.IsCompleted
            ? HealthCheckResult.Healthy($"counted through ledger entry {readiness.CountedThrough}", new Dictionary<string, object>
            {
                ["countedThrough"] = readiness.CountedThrough,
                ["startedFromCheckpoint"] = readiness.StartedFromCheckpoint,
                ["entriesReadAtStart"] = readiness.EntriesReadAtStart,
            })
            : HealthCheckResult.Unhealthy("rebuilding the sales matrix from the ledger"));
}
