using Microsoft.Extensions.Diagnostics.HealthChecks;
using Supermarket.Database.Purchases;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>
/// Whether the writer's last write reached the database. While it is away the batches in flight wait in their retries
/// and the writer takes no more, so it reports itself not ready (<c>/health/ready</c> says since when and why) and
/// <c>supermarket.writer.database.away</c> is 1: a writer holding acknowledged purchases until the database is back,
/// not one that lost them.
/// </summary>
public sealed class DatabaseAvailability(TimeProvider clock) : IHealthCheck
{
    private volatile Away? _away;

    public bool IsAway => _away is not null;

    public void Reached() => _away = null;

    /// <summary>A failed write: the database is away unless MySQL refused the purchases themselves.</summary>
    public void Failed(Exception exception)
    {
        if (!StorageFailure.IsUnstorable(exception))
        {
            _away ??= new Away(clock.GetUtcNow(), exception.Message);
        }
    }

    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(_away is { } away
            ? HealthCheckResult.Unhealthy($"the database has been away since {away.Since:O} ({away.Error}); batches wait in their retries until it is back")
            : HealthCheckResult.Healthy("the last write reached the database"));

    private sealed record Away(DateTimeOffset Since, string Error);
}
