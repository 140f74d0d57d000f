extern alias LoadTest;

using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Access;

/// <summary>The API's public port (the one nginx and the deployment publish) serves the API and its documentation
/// only; /health/*, /metrics and /about answer on its management port. On the real Kestrel of the API's own build,
/// started with --urls and --Management:Url as the AppHost starts it: the in-memory test server has no ports to tell
/// apart.</summary>
[Collection(nameof(SystemCollection))]
public sealed class ManagementPortTests(SupermarketSystem system)
{
    [Fact]
    public async Task The_management_endpoints_answer_on_the_management_port_and_not_on_the_public_one()
    {
        _ = system.WriterUrl;
        var (publicPort, managementPort) = (FreePort(), FreePort());
        var output = new System.Collections.Concurrent.ConcurrentQueue<string>();
        using var api = StartApi(publicPort, managementPort, output);
        try
        {
            using var management = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{managementPort}") };
            using var published = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{publicPort}") };
            var ready = await Eventually.UntilAsync(async () =>
            {
                try
                {
                    return (await management.GetAsync("/health/ready")).StatusCode == HttpStatusCode.OK;
                }
                catch (HttpRequestException) when (!api.HasExited)
                {
                    return false; // not listening yet
                }
            }, ok => ok, TimeSpan.FromSeconds(60));
            Assert.True(ready, $"the API was not ready on its management port within 60 s: {string.Join('\n', output)}");

            foreach (var path in new[] { "/health/live", "/health/ready", "/metrics", "/about" })
            {
                Assert.Equal(HttpStatusCode.OK, (await management.GetAsync(path)).StatusCode);
                Assert.Equal(HttpStatusCode.NotFound, (await published.GetAsync(path)).StatusCode);
            }

            Assert.Equal(HttpStatusCode.OK, (await published.GetAsync("/swagger/v1/swagger.json")).StatusCode);
            // A new API's first question may miss its 2 s deadline on a busy box (504, as documented); a later one is
            // answered. Either way it is served on the public port.
            Assert.Equal(HttpStatusCode.OK, await Eventually.UntilAsync(async () => (await published.GetAsync("/items/store/1")).StatusCode,
                status => status != HttpStatusCode.GatewayTimeout, TimeSpan.FromSeconds(30)));
        }
        finally
        {
            api.Kill(entireProcessTree: true);
            await api.WaitForExitAsync();
        }
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    /// <summary>The API's own build output, its content root, with the tests' settings and its own accounts in its
    /// environment.</summary>
    private static Process StartApi(int publicPort, int managementPort, System.Collections.Concurrent.ConcurrentQueue<string> output)
    {
        var root = LoadTest::Supermarket.LoadTest.Repository.Root() ?? throw new InvalidOperationException("The checkout is not above the tests.");
        var tests = new DirectoryInfo(AppContext.BaseDirectory);
        var bin = Path.Combine(root, "src", "Supermarket.Api", "bin", tests.Parent!.Name, tests.Name);
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = bin,
            ArgumentList = { "Supermarket.Api.dll", "--urls", $"http://127.0.0.1:{publicPort}" },
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var (key, value) in TestSettings.ApiAccounts().Concat(TestSettings.For()))
        {
            start.Environment[key.Replace(":", "__", StringComparison.Ordinal)] = value;
        }

        start.Environment["Management__Url"] = $"http://127.0.0.1:{managementPort}";
        var process = Process.Start(start) ?? throw new InvalidOperationException("dotnet did not start");
        process.OutputDataReceived += (_, line) => output.Enqueue(line.Data ?? "");
        process.ErrorDataReceived += (_, line) => output.Enqueue(line.Data ?? "");
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return process;
    }
}
