extern alias LoadTest;

namespace Supermarket.IntegrationTests.AppHost;

/// <summary>The README's "Try it" block, run word for word by bash against the system up (the test run's
/// <see cref="Infrastructure.TestedAppHost"/>): a newcomer's first copy-paste must work. Only curl is observed: it is
/// told to fail on an HTTP error, so every request must answer 2xx.</summary>
public sealed class ReadmeTryItTests(ITestOutputHelper output)
{
    [Fact]
    public async Task Every_command_of_the_try_it_block_answers_2xx()
    {
        var block = TryItBlock();
        Assert.Contains("curl", block, StringComparison.Ordinal);
        var script = "set -euo pipefail\ncurl() { command curl --silent --show-error --fail-with-body \"$@\"; echo; }\n" + block;

        var (exitCode, console) = await ReadmeCommand.RunAsync("bash", ["-c", script], TimeSpan.FromMinutes(3));
        output.WriteLine(console);

        Assert.Equal(0, exitCode);
    }

    /// <summary>The first bash block after "Try it".</summary>
    private static string TryItBlock()
    {
        var readme = File.ReadAllLines(Path.Combine(LoadTest::Supermarket.LoadTest.Repository.Root()!, "README.md"));
        var tryIt = Array.FindIndex(readme, line => line.StartsWith("Try it", StringComparison.Ordinal));
        var opening = Array.FindIndex(readme, tryIt, line => line == "```bash");
        var closing = Array.FindIndex(readme, opening + 1, line => line == "```");
        return string.Join('\n', readme[(opening + 1)..closing]);
    }
}
