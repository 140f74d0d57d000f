using System.CommandLine;
using Supermarket.Faults;

namespace Supermarket.LoadTest.Operations;

/// <summary>The <c>fault</c> command: one fault, or its repair, on a resource of the AppHost of this checkout (which
/// <c>./run.sh up</c> started), through <see cref="SystemFaults"/>, for a measuring session that needs one
/// (loadtest/measure.sh pauses the writer); returns once it is done (a stop once the resource is down).</summary>
public sealed class FaultCommandLine
{
    private static readonly Dictionary<string, Func<SystemFaults, string, CancellationToken, Task>> Faults = new()
    {
        ["stop"] = (faults, resource, cancel) => faults.StopAsync(resource, cancel),
        ["start"] = (faults, resource, cancel) => faults.StartAsync(resource, cancel),
        ["kill"] = (faults, resource, cancel) => faults.KillAsync(resource, cancel),
        ["pause"] = (faults, resource, cancel) => faults.PauseAsync(resource, cancel),
        ["resume"] = (faults, resource, cancel) => faults.ResumeAsync(resource, cancel),
    };

    private readonly Argument<string> _fault = new("fault") { Description = string.Join(", ", Faults.Keys) };

    private readonly Argument<string> _resource = new("resource") { Description = "the AppHost's name for it (purchases-writer, sales-aggregator, mariadb, ...)" };

    public FaultCommandLine()
    {
        _fault.AcceptOnlyFromAmong([.. Faults.Keys]);
        Command = new Command("fault", "one fault or repair on a resource of the AppHost ./run.sh up started: stop (until it is down), start, kill (SIGKILL), pause (SIGSTOP), resume (SIGCONT)")
        {
            _fault, _resource,
        };
        Command.SetAction(async (parsed, cancel) =>
        {
            var repository = Repository.Root() ?? throw new InvalidOperationException("the fault command runs from a clone (no Supermarket.sln above it)");
            await Faults[parsed.GetValue(_fault)!](new SystemFaults(new AspireCli(repository)), parsed.GetValue(_resource)!, cancel);
            return 0;
        });
    }

    public Command Command { get; }
}
