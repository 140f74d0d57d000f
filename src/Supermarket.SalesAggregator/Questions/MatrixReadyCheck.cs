using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Supermarket.SalesAggregator.Questions;

/// <summary>Part of /health/ready: an aggregator still rebuilding its matrix would only let questions time out.</summary>
public sealed class MatrixReadyCheck(MatrixReadiness readiness) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(readiness.Ready.IsCompleted
            ? HealthCheckResult.Healthy($"counted through ledger entry {readiness.CountedThrough}")
            : HealthCheckResult.Unhealthy("rebuilding the sales matrix from the ledger"));
}
