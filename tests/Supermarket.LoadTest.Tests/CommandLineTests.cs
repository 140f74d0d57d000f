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

    /// <summary>A value of the wrong type is a usage error, as a value out of range is: found as a stack trace from
    /// `--hours 0.25`, whose range check asked for the number the parser could not make.</summary>
    [Theory]
    [InlineData("--hours", "0.25")]
    [InlineData("--stores", "many")]
    [InlineData("--rate", "fast")]
    public void A_value_of_the_wrong_type_is_a_usage_error_naming_its_option(string option, string value)
    {
        var parsed = new LoadCommandLine().Command.Parse([option, value]);

        Assert.Contains(parsed.Errors, error => error.Message.Contains(option, StringComparison.Ordinal));
    }

    /// <summary>The operator's chores are commands of their own (loadtest/measure.sh and docs/api.md run
    /// <c>broker delete-queues</c>): one parses as itself, and a verb the group does not have, or the group alone, is
    /// refused before anything reaches the broker.</summary>
    [Fact]
    public void Broker_delete_queues_parses_and_an_unknown_broker_verb_is_refused()
    {
        var command = new LoadCommandLine().Command;

        var parsed = command.Parse(["broker", "delete-queues"]);

        Assert.Empty(parsed.Errors);
        Assert.Equal("delete-queues", parsed.CommandResult.Command.Name);
        Assert.NotEmpty(command.Parse(["broker", "delete-queue"]).Errors);
        Assert.NotEmpty(command.Parse(["broker", "delete-queues", "supermarket.purchases"]).Errors);
        Assert.NotEmpty(command.Parse(["broker"]).Errors);
    }
}
