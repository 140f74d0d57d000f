namespace Supermarket.IntegrationTests.AppHost;

/// <summary>The README's way to run the load test against the system up (here the test run's <see cref="Infrastructure.TestedAppHost"/>): `dotnet run` of the load
/// test as written there, with no variable set by hand. It finds this machine's signing key and accounts itself.</summary>
public sealed class ReadmeLoadTestTests(ITestOutputHelper output)
{
    [Fact]
    public async Task The_load_test_run_as_the_README_says_verifies_its_day()
    {
        var (exitCode, console) = await ReadmeCommand.RunAsync("dotnet",
            ["run", "-c", "Release", "--project", "loadtest/Supermarket.LoadTest", "--",
                "--stores", "4", "--purchases-per-hour", "20", "--date", "20190303", "--plain"],
            TimeSpan.FromMinutes(5));
        output.WriteLine(console);

        Assert.Equal(0, exitCode);
        Assert.Contains("OK   store 1's purchases on 20190303: every purchase with a 201 is there", console, StringComparison.Ordinal);
    }
}
