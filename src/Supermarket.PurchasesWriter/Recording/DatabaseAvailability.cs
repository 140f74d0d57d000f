using Microsoft.Extensions.Diagnostics.HealthChecks;
using Supermarket.Database.Purchases;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>Not ready while the database is away: the writer holds acknowledged purchases in their retries.</summary>
public sealed class DatabaseAvailability(TimeProvider clock) : IHealthCheck
{
    private volatile Away? _away;

    public bool IsAway => _away is not null;

    public void Reached() => _away = null;

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
