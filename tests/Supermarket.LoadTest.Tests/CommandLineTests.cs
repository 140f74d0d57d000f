using Supermarket.LoadTest;

namespace Supermarket.LoadTest.Tests;

public sealed class CommandLineTests
{
    /// <summary>--help is the documentation of `dotnet run --project loadtest/Supermarket.LoadTest`: every option is
    /// there, and every one that has a default shows it.</summary>
    [Fact]
    public void Help_lists_every_option_with_its_default()
    {
        var command = new LoadCommandLine().Command;
        var output = new StringWriter();

        var exit = command.Parse(["--help"]).Invoke(new() { Output = output });

        var help = output.ToString();
        Assert.Equal(0, exit);
        Assert.All(command.Options.Where(option => option.Name is not ("--help" or "--version")), option => Assert.Contains(option.Name, help));
        Assert.Contains("[default: 32]", help);
        Assert.Contains("[default: Day]", help);
        Assert.Contains("[default: http://127.0.0.1:8080/]", help);
        Assert.Contains("compare", help);
    }
}
