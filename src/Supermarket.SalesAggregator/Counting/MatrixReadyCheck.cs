using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;
using Supermarket.SalesAggregator.Sharding;

namespace Supermarket.SalesAggregator.Counting;

/// <summary>Not ready while the matrix is built (questions would only time out), or while an entry stays missing:
/// answers stay exact but stop moving. How the start went shows whether a checkpoint survived a restart.</summary>
public sealed class MatrixReadyCheck(MatrixReadiness readiness, SalesShard shard, IOptions<AggregatorOptions> options) : IHealthCheck
{
    private readonly TimeSpan _patience = options.Value.MissingEntryPatience;

    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        if (!readiness.Ready.IsCompleted)
        {
            return Task.FromResult(HealthCheckResult.Unhealthy("building the sales matrix from the ledger"));
        }

        var data = new Dictionary<string, object>
        {
            ["countedThrough"] = readiness.CountedThrough,
            ["startedFromCheckpoint"] = readiness.StartedFromCheckpoint,
            ["entriesReadAtStart"] = readiness.EntriesReadAtStart,
            ["startSeconds"] = Math.Round(readiness.StartTook?.TotalSeconds ?? 0, 2),
            ["shard"] = $"{shard.Number} of {shard.Count}",
            ["items"] = shard.Items.ToString(),
            ["matrixBytes"] = shard.MatrixBytes,
        };
        if (readiness.WaitingFor is { } missing && readiness.WaitingTime is var waited && waited >= _patience)
        {
            data["waitingFor"] = missing;
            return Task.FromResult(HealthCheckResult.Unhealthy(
                $"ledger entry {missing} has been missing for {waited.TotalSeconds:F0} s while later entries are readable; counted through {readiness.CountedThrough}",
                data: data));
        }

        return Task.FromResult(HealthCheckResult.Healthy($"counted through ledger entry {readiness.CountedThrough}", data));
    }
}
