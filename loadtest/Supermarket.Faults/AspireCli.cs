using System.Globalization;
using System.Text.Json.Nodes;

namespace Supermarket.Faults;

/// <summary>
/// The AppHost of this checkout that <c>./run.sh</c> started, reached through the Aspire CLI (the local tool
/// dotnet-tools.json pins), as an operator at a terminal would reach it: <c>aspire describe</c>, <c>aspire resource
/// NAME stop|start</c>, <c>aspire wait</c>. What it reads of the CLI is JSON.
/// </summary>
public sealed class AspireCli(string repository) : IAppHostResources
{
    private readonly string _appHost = Path.Combine(repository, "src", "Supermarket.AppHost");

    public async Task<IReadOnlyList<AppHostResource>> ListAsync(CancellationToken cancellationToken) =>
        [.. (await DescribedAsync(null, cancellationToken)).Select(Read)];

    public async Task<AppHostResource> DescribeAsync(string resource, CancellationToken cancellationToken) =>
        (await DescribedAsync(resource, cancellationToken)).Select(Read).FirstOrDefault()
        ?? throw new InvalidOperationException($"The AppHost has no resource {resource}.");

    public async Task CommandAsync(string resource, ResourceCommand command, CancellationToken cancellationToken) =>
        await AspireAsync(["resource", resource, command == ResourceCommand.Stop ? "stop" : "start"], cancellationToken);

    public async Task WaitAsync(string resource, ResourceStatus status, TimeSpan patience, CancellationToken cancellationToken)
    {
        var waited = await ExternalCommand.RunAsync("dotnet",
            Arguments(["wait", resource, "--status", status == ResourceStatus.Healthy ? "healthy" : "down",
                "--timeout", ((int)Math.Ceiling(patience.TotalSeconds)).ToString(CultureInfo.InvariantCulture)]),
            cancellationToken, repository, CliEnvironment, patience + ExternalCommand.DefaultPatience);
        if (waited.ExitCode != 0)
        {
            throw new TimeoutException($"{resource} was not {status.ToString().ToLowerInvariant()} within {patience.TotalSeconds:F0} s: {waited.Errors.Trim()}{waited.Output.Trim()}");
        }
    }

    /// <summary>What every resource printed so far, timestamped (<c>aspire logs</c>).</summary>
    public Task<string> LogsAsync(CancellationToken cancellationToken) => AspireAsync(["logs", "--timestamps"], cancellationToken);

    private async Task<IEnumerable<JsonNode>> DescribedAsync(string? resource, CancellationToken cancellationToken)
    {
        var json = await AspireAsync(["describe", .. resource is null ? Array.Empty<string>() : [resource], "--format", "Json"], cancellationToken);
        return ResourcesOf(json);
    }

    /// <summary>The resources <c>aspire describe</c> printed; no JSON (no AppHost of this checkout runs) is an
    /// <see cref="InvalidOperationException"/> that says so.</summary>
    public static IEnumerable<JsonNode> ResourcesOf(string described)
    {
        try
        {
            return JsonNode.Parse(described)?["resources"]?.AsArray().OfType<JsonNode>() ?? [];
        }
        catch (System.Text.Json.JsonException exception)
        {
            throw new InvalidOperationException("the Aspire CLI described no AppHost of this checkout (is it up? ./run.sh up)", exception);
        }
    }

    private static AppHostResource Read(JsonNode described) => new(
        Name: (string?)described["displayName"] ?? (string)described["name"]!,
        State: (string?)described["state"],
        Health: (string?)described["healthStatus"],
        Pid: described["properties"]?["executable.pid"] is { } pid ? int.Parse(pid.ToString(), CultureInfo.InvariantCulture) : null,
        Environment: (described["environment"]?.AsObject() ?? [])
            .Where(variable => variable.Value is not null)
            .ToDictionary(variable => variable.Key, variable => variable.Value!.ToString()),
        Urls: (described["urls"]?.AsArray() ?? []).OfType<JsonNode>()
            .Where(url => url["name"] is not null && url["url"] is not null)
            .DistinctBy(url => (string)url["name"]!)
            .ToDictionary(url => (string)url["name"]!, url => new Uri((string)url["url"]!)),
        WorkingDirectory: (string?)described["properties"]?["executable.workDir"]);

    private Task<string> AspireAsync(IReadOnlyList<string> command, CancellationToken cancellationToken) =>
        ExternalCommand.OutputAsync("dotnet", Arguments(command), cancellationToken, repository, CliEnvironment);

    private IReadOnlyList<string> Arguments(IReadOnlyList<string> command) =>
        ["tool", "run", "aspire", command[0], "--apphost", _appHost, "--non-interactive", "--nologo", .. command.Skip(1)];

    /// <summary>The CLI's telemetry would leave this machine; nothing does.</summary>
    private static readonly Dictionary<string, string> CliEnvironment = new()
    {
        ["ASPIRE_CLI_TELEMETRY_OPTOUT"] = "1",
        ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1",
    };
}
