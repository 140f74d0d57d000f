using System.Diagnostics;
using Supermarket.Faults;

namespace Supermarket.LoadTest.Tests.Chaos;

public sealed class ExternalCommandTests
{
    [Fact]
    public async Task A_command_whose_output_a_process_it_left_behind_holds_open_returns_once_it_has_exited()
    {
        // The background sleep inherits the command's output pipe and holds it open for 30 s after sh has exited.
        var watch = Stopwatch.StartNew();
        var result = await ExternalCommand.RunAsync("sh", ["-c", "sleep 30 & echo printed"], TestContext.Current.CancellationToken);

        Assert.Equal(0, result.ExitCode);
        Assert.Equal("printed", result.Output.Trim());
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(25), $"returned after {watch.Elapsed.TotalSeconds:F1} s, waiting for the pipe");
    }
}
