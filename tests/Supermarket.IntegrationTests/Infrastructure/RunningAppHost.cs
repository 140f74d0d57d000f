using System.Diagnostics;
using System.Text.Json;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>The system as ./run.sh runs it: the AppHost of this checkout, asked through the Aspire CLI's JSON (./test.sh
/// starts it first unless it runs already).</summary>
public static class RunningAppHost
{
    public static readonly string Repository = FindRepository();

    /// <summary>The dashboard's address with its login token.</summary>
    public static async Task<Uri> DashboardAsync()
    {
        using var appHosts = await AspireAsync("ps", "--format", "Json");
        var appHost = appHosts.RootElement.EnumerateArray()
            .Where(host => host.GetProperty("appHostPath").GetString()!.StartsWith(Repository, StringComparison.Ordinal))
            .Select(host => host.GetProperty("dashboardUrl").GetString())
            .FirstOrDefault();
        return appHost is { } url ? new Uri(url) : throw new InvalidOperationException("The AppHost of this checkout is not running: ./run.sh up starts it.");
    }

    /// <summary>Every resource: its name, state, health (null when it has no health check) and, once it ended, its exit
    /// code.</summary>
    public static async Task<IReadOnlyList<(string Name, string Type, string State, string? Health, int? ExitCode)>> ResourcesAsync()
    {
        using var described = await AspireAsync("describe", "--apphost", Path.Combine(Repository, "src", "Supermarket.AppHost"), "--format", "Json");
        return [.. described.RootElement.GetProperty("resources").EnumerateArray().Select(resource => (
            resource.GetProperty("displayName").GetString()!,
            resource.GetProperty("resourceType").GetString()!,
            resource.GetProperty("state").GetString()!,
            resource.TryGetProperty("healthStatus", out var health) && health.ValueKind == JsonValueKind.String ? health.GetString() : null,
            resource.TryGetProperty("exitCode", out var exit) && exit.ValueKind == JsonValueKind.Number ? exit.GetInt32() : (int?)null))];
    }

    private static async Task<JsonDocument> AspireAsync(params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = Repository,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            Environment = { ["ASPIRE_CLI_TELEMETRY_OPTOUT"] = "1", ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1" },
        };
        foreach (var argument in (string[])["tool", "run", "aspire", .. arguments, "--non-interactive", "--nologo"])
        {
            start.ArgumentList.Add(argument);
        }

        using var aspire = Process.Start(start)!;
        var output = aspire.StandardOutput.ReadToEndAsync();
        var errors = aspire.StandardError.ReadToEndAsync();
        await aspire.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));
        Assert.True(aspire.ExitCode == 0, $"aspire {string.Join(' ', arguments)} failed: {await errors}");
        return JsonDocument.Parse(await output);
    }

    private static string FindRepository()
    {
        var root = new DirectoryInfo(AppContext.BaseDirectory);
        while (!File.Exists(Path.Combine(root.FullName, "run.sh")))
        {
            root = root.Parent ?? throw new InvalidOperationException("The checkout's root (run.sh) is not above the tests.");
        }

        return root.FullName;
    }
}
