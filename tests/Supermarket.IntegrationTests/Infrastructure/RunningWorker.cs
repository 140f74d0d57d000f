using Microsoft.AspNetCore.Builder;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>A worker started by a test. Disposing it stops it first: a WebApplication disposed without being
/// stopped leaves its bus consuming, and a later test's question was answered by a consumer whose services were
/// gone (found: ObjectDisposedException faults, 503s instead of 504s).</summary>
public sealed class RunningWorker(WebApplication app) : IAsyncDisposable
{
    public IServiceProvider Services => app.Services;

    /// <summary>Where it serves /health/live, /health/ready and /metrics.</summary>
    public Uri Url => new(app.Urls.First());

    public Task StopAsync() => app.StopAsync();

    /// <summary>Stops it with the host's shutdown time already spent (<paramref name="cancellationToken"/> cancelled):
    /// what a stop looks like to the services stopped after one that used it all.</summary>
    public Task StopAsync(CancellationToken cancellationToken) => app.StopAsync(cancellationToken);

    public async ValueTask DisposeAsync()
    {
        await app.StopAsync();
        await app.DisposeAsync();
    }
}
