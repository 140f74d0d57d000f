using System.Reflection;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// The commit this load test is built from, and whether the API it is about to test is built from the same one. A
/// day checks the API as this build knows it; against an API of another commit its verdict is about neither (the
/// containers once ran a load test image left from an older checkout, so a fix in the load test never ran there).
/// A version names its commit after a '+': the SDK adds it from git, docker/Dockerfile from its SOURCE_REVISION. A
/// version without one says nothing either way.
/// </summary>
public static class LoadTestBuild
{
    /// <summary>The name the API's /about gives itself.</summary>
    public const string Api = "Supermarket.Api";

    public static string? Version { get; } =
        typeof(LoadTestBuild).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;

    /// <summary>Why the API of <paramref name="system"/> is not this build; null when it is, or when the API or the
    /// load test does not say its commit (an API that did not answer /about among them).</summary>
    public static string? DisagreementWith(SystemUnderTest system, string? loadTestVersion)
    {
        var apiVersion = system.Groups.Where(group => group.Name == Api).SelectMany(group => group.Settings)
            .FirstOrDefault(setting => setting.Name == "version")?.Value;
        var ours = Commit(loadTestVersion);
        var theirs = Commit(apiVersion);
        return ours is null || theirs is null || ours == theirs
            ? null
            : $"the load test is built from commit {ours} and the API it would test from {theirs}: build both from one checkout (in containers, scripts/containers.sh up builds every image)";
    }

    private static string? Commit(string? version)
    {
        var plus = version?.IndexOf('+') ?? -1;
        return plus >= 0 && plus < version!.Length - 1 ? version[(plus + 1)..] : null;
    }
}
