using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;
using Supermarket.SalesAggregator.Sharding;

namespace Supermarket.SalesAggregator.Counting;

/// <summary>Part of /health/ready: an aggregator still building its matrix would only let questions time out. Once
/// ready, it says how the start went (from a checkpoint or the whole ledger, how many entries it read and how long it
/// took from the process's start), which is what shows a deployment's checkpoint survived a restart, and which shard
/// it is (its items and memory). A ledger entry missing below one that can be read for longer than
/// Aggregator:MissingEntryPatience makes it not ready, naming the entry: the answers stay exact up to the entry before
/// it, but they stop moving.</summary>
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
