namespace Supermarket.LoadTest.Tests;

/// <summary>A command line the load test does not understand exits with its own code, not 1, which says a day lost
/// purchases: a script that reads the exit code tells a typo from a loss.</summary>
public sealed class ExitCodeTests
{
    [Theory]
    [InlineData("--no-such-option")]
    [InlineData("fault", "explode", "purchases-writer")]
    [InlineData("broker", "rabbit-delete-app-queues")]
    [InlineData("system", "explode")]
    [InlineData("--stores", "many")]
    public async Task A_command_line_not_understood_exits_with_the_usage_error(params string[] args)
    {
        Assert.Equal(LoadCommandLine.UsageError, await LoadCommandLine.RunAsync(args));
    }
}
