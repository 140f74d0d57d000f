using System.Diagnostics;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>Runs scripts/services.sh, to stop and start a real service of the AppHost (or pause its process) the way
/// an outage would.</summary>
public static class ServiceScript
{
    public static async Task RunAsync(params string[] command)
    {
        var root = AppContext.BaseDirectory;
        while (!File.Exists(System.IO.Path.Combine(root, "Supermarket.sln")))
        {
            root = Directory.GetParent(root)?.FullName ?? throw new InvalidOperationException("Supermarket.sln not found above the test folder.");
        }

        using var process = Process.Start(new ProcessStartInfo("bash", [System.IO.Path.Combine(root, "scripts", "services.sh"), .. command])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        })!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(3));
        Assert.True(process.ExitCode == 0, $"services.sh {string.Join(' ', command)} failed: {await output}{await errors}");
    }
}
