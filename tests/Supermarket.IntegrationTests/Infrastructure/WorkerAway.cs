using System.Diagnostics;
using System.Net;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>What a GET that asks a worker gets while that worker is stopped.</summary>
public static class WorkerAway
{
    /// <summary>Stops a worker, requires a prompt 504 problem+json for <paramref name="path"/>, and starts it again.
    /// Waits first until the system is healthy: only the worker may be missing, not a broker connection still
    /// recovering from an earlier test.</summary>
    public static async Task AssertPromptGatewayTimeoutAsync(SupermarketSystem system, Func<Task> stop, Func<Task> start, string path)
    {
        await system.WaitUntilHealthyAsync();
        await stop();
        try
        {
            var watch = Stopwatch.StartNew();
            var response = await system.Api.GetAsync(path);
            watch.Stop();

            Assert.Equal(HttpStatusCode.GatewayTimeout, response.StatusCode);
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(10), $"the 504 took {watch.Elapsed}");
        }
        finally
        {
            await start();
        }
    }
}
