extern alias LoadTest;

using System.Diagnostics;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.AppHost;

/// <summary>The README's way to run the load test against the system up (here the test run's <see cref="TestedAppHost"/>): `dotnet run` of the load
/// test as written there, with no variable set by hand. It finds this machine's signing key and accounts itself.</summary>
public sealed class ReadmeLoadTestTests(ITestOutputHelper output)
{
    [Fact]
    public async Task The_load_test_run_as_the_README_says_verifies_its_day()
    {
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = LoadTest::Supermarket.LoadTest.Repository.Root() ?? throw new InvalidOperationException("The checkout is not above the tests."),
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var argument in (string[])["run", "-c", "Release", "--project", "loadtest/Supermarket.LoadTest", "--",
                     "--stores", "4", "--purchases-per-hour", "20", "--date", "20190303", "--plain"])
        {
            start.ArgumentList.Add(argument);
        }

        // Nothing this test process was given reaches it: the key and the accounts are the machine's.
        foreach (var inherited in start.Environment.Keys.Where(name => name.StartsWith("Auth__", StringComparison.Ordinal)
                     || name.StartsWith("SUPERMARKET_", StringComparison.Ordinal)).ToList())
        {
            start.Environment.Remove(inherited);
        }

        using var loadTest = Process.Start(start)!;
        var console = loadTest.StandardOutput.ReadToEndAsync();
        var errors = loadTest.StandardError.ReadToEndAsync();
        await loadTest.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(5));
        output.WriteLine(await console);
        output.WriteLine(await errors);

        Assert.Equal(0, loadTest.ExitCode);
        Assert.Contains("OK   store 1's purchases on 20190303: every purchase with a 201 is there", await console, StringComparison.Ordinal);
    }
}
