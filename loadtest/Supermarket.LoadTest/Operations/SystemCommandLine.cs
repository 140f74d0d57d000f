using System.CommandLine;
using Supermarket.Faults;

namespace Supermarket.LoadTest.Operations;

/// <summary>The <c>system</c> command: what the AppHost of this checkout (which <c>./run.sh up</c> started) runs, as a
/// script needs it, read once here through the Aspire CLI (<see cref="AspireCli"/>) where scripts/apphost.sh only
/// starts, stops and waits. <c>system pids</c>: a <c>name pid</c> line for each resource with a process, the pid of the
/// process doing its work (<see cref="ProcessTree.Worker"/>; loadtest/measure.sh's PROFILE=1 keeps them for
/// loadtest/profile-report.sh); <c>system names PREFIX</c>: the resources whose names start so, one a line (the
/// aggregator's shards); <c>system url RESOURCE ENDPOINT</c>: one endpoint's address (the aggregator's
/// <c>management</c>). Each prints nothing else; an error goes to the error output, with exit code 1.</summary>
public sealed class SystemCommandLine
{
    public const int Failed = 1;

    private readonly Argument<string> _prefix = new("prefix") { Description = "how the names start (sales-aggregator)" };

    private readonly Argument<string> _resource = new("resource") { Description = "the AppHost's name for it (sales-aggregator, api, ...)" };

    private readonly Argument<string> _endpoint = new("endpoint") { Description = "the endpoint's name (http, management, ...)" };

    public SystemCommandLine()
        : this(() => new AspireCli(Repository.Root() ?? throw new InvalidOperationException("the system command runs from a clone (no Supermarket.sln above it)")),
            ProcessTree.Worker)
    {
    }

    /// <param name="appHost">The AppHost asked, made once a subcommand runs.</param>
    /// <param name="worker">The process doing a resource's work, from the one the AppHost started.</param>
    public SystemCommandLine(Func<IAppHostResources> appHost, Func<int, int> worker)
    {
        var pids = new Command("pids", "a \"name pid\" line for each resource with a process: the process doing its work (the newest child of the one the AppHost started, if it has one)");
        pids.SetAction((parsed, cancel) => PrintAsync(parsed, async () => await PidsAsync(appHost(), worker, cancel)));

        var names = new Command("names", "the resources whose names start with PREFIX, one a line") { _prefix };
        names.SetAction((parsed, cancel) => PrintAsync(parsed, async () => await NamesAsync(appHost(), parsed.GetValue(_prefix)!, cancel)));

        var url = new Command("url", "the address of one endpoint of a resource, without a closing slash (a path is appended to it)") { _resource, _endpoint };
        url.SetAction((parsed, cancel) => PrintAsync(parsed, async () => [await UrlAsync(appHost(), parsed.GetValue(_resource)!, parsed.GetValue(_endpoint)!, cancel)]));

        Command = new Command("system", "what the AppHost ./run.sh up started runs, for a script: each resource's process, names, endpoints") { pids, names, url };
    }

    public Command Command { get; }

    /// <summary>A <c>name pid</c> line for each resource with a process, in the AppHost's order: the pid of its
    /// <paramref name="worker"/> (a project's run host runs the service; RabbitMQ's start script runs the Erlang VM).
    /// A resource without a process (stopped, or a container) has no line.</summary>
    public static async Task<IReadOnlyList<string>> PidsAsync(IAppHostResources appHost, Func<int, int> worker, CancellationToken cancellationToken) =>
        [.. (await appHost.ListAsync(cancellationToken)).Where(resource => resource.Pid is not null).Select(resource => $"{resource.Name} {worker(resource.Pid!.Value)}")];

    /// <summary>The resources whose names start with <paramref name="prefix"/>, in the AppHost's order.</summary>
    public static async Task<IReadOnlyList<string>> NamesAsync(IAppHostResources appHost, string prefix, CancellationToken cancellationToken) =>
        [.. (await appHost.ListAsync(cancellationToken)).Select(resource => resource.Name).Where(name => name.StartsWith(prefix, StringComparison.Ordinal))];

    /// <summary>The address of the resource's endpoint, without a closing slash, so that a path can follow it; an
    /// endpoint it does not have is an error naming those it has.</summary>
    public static async Task<string> UrlAsync(IAppHostResources appHost, string resource, string endpoint, CancellationToken cancellationToken)
    {
        var described = await appHost.DescribeAsync(resource, cancellationToken);
        return described.Urls.TryGetValue(endpoint, out var url)
            ? url.AbsoluteUri.TrimEnd('/')
            : throw new InvalidOperationException($"{resource} has no endpoint {endpoint} (its endpoints: {(described.Urls.Count > 0 ? string.Join(", ", described.Urls.Keys.Order(StringComparer.Ordinal)) : "none")})");
    }

    /// <summary>The lines on the output and exit code 0; what failed on the error output alone, and 1.</summary>
    private static async Task<int> PrintAsync(ParseResult parsed, Func<Task<IReadOnlyList<string>>> lines)
    {
        IReadOnlyList<string> printed;
        try
        {
            printed = await lines();
        }
        catch (Exception exception) when (exception is InvalidOperationException or TimeoutException)
        {
            await parsed.InvocationConfiguration.Error.WriteLineAsync($"{string.Join(' ', parsed.Tokens.Select(token => token.Value))}: {exception.Message}");
            return Failed;
        }

        foreach (var line in printed)
        {
            await parsed.InvocationConfiguration.Output.WriteLineAsync(line);
        }

        return 0;
    }
}
