using System.Text.RegularExpressions;

namespace Supermarket.Deployment.Tests;

/// <summary>docker/compose.yaml, read as lines (no YAML library is needed for what the tests check).</summary>
public static partial class ComposeFile
{
    public static readonly string[] Lines = File.ReadAllLines(Path.Combine(RepositoryRoot(), "docker", "compose.yaml"));

    /// <summary>Every program compose builds an image of from docker/Dockerfile (its APP build argument).</summary>
    public static IEnumerable<string> BuiltApps() =>
        Lines.Select(line => BuildArg().Match(line)).Where(match => match.Success && match.Groups["name"].Value == "APP").Select(match => match.Groups["value"].Value);

    /// <summary>The runtime image those programs run on where Microsoft's registry answers (the default of
    /// RUNTIME_IMAGE; this machine's stand-in replaces it through DOTNET_RUNTIME_IMAGE).</summary>
    public static string DefaultRuntimeImage() =>
        Lines.Select(line => DefaultRuntime().Match(line)).Single(match => match.Success).Groups["image"].Value;

    public static string RepositoryRoot() => Supermarket.LoadTest.Repository.Root()
        ?? throw new InvalidOperationException("Supermarket.sln not found above the test folder.");

    [GeneratedRegex(@"^\s+(?<name>APP):\s*(?<value>\S+)\s*$")]
    private static partial Regex BuildArg();

    [GeneratedRegex(@"^\s+RUNTIME_IMAGE:\s*\$\{DOTNET_RUNTIME_IMAGE:-(?<image>[^}]+)\}\s*$")]
    private static partial Regex DefaultRuntime();
}
