extern alias LoadTest;

using System.Diagnostics;

namespace Supermarket.IntegrationTests.AppHost;

/// <summary>A command the README gives a user, run as a user would: from the checkout, with none of this test
/// process's keys or accounts in its environment (what it needs it finds on the machine, as the user's would).</summary>
public static class ReadmeCommand
{
    public static async Task<(int ExitCode, string Output)> RunAsync(string program, IEnumerable<string> arguments, TimeSpan within)
    {
        var start = new ProcessStartInfo(program)
        {
            WorkingDirectory = LoadTest::Supermarket.LoadTest.Repository.Root() ?? throw new InvalidOperationException("The checkout is not above the tests."),
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var inherited in start.Environment.Keys.Where(name => name.StartsWith("Auth__", StringComparison.Ordinal)
                     || name.StartsWith("SUPERMARKET_", StringComparison.Ordinal)).ToList())
        {
            start.Environment.Remove(inherited);
        }

        using var process = Process.Start(start)!;
        var console = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(within);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }

        return (process.ExitCode, await console + await errors);
    }
}
