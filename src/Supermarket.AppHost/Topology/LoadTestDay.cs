namespace Supermarket.AppHost.Topology;

/// <summary>A day of the load test (or its chaos run) as a resource of the AppHost: it starts once the public API is
/// healthy, its console is on the dashboard, and its exit code is the day's verdict (./run.sh waits for it).</summary>
public static class LoadTestDay
{
    /// <summary>What comes before it is the AppHost's own options; what follows, the load test's.</summary>
    public const string Marker = "--day";

    public static (string[] Options, IReadOnlyList<string>? Day) Split(string[] args) =>
        Array.IndexOf(args, Marker) is var marker and >= 0 ? (args[..marker], args[(marker + 1)..]) : (args, null);

    public static IResourceBuilder<ProjectResource> AddLoadTestDay(this IDistributedApplicationBuilder builder, IReadOnlyList<string> day) =>
        builder.AddProject<Projects.Supermarket_LoadTest>("load-test").WithArgs([.. day]);

    /// <summary>The day on this AppHost's system, once its public API is healthy.</summary>
    public static void AddLoadTestDay(this IDistributedApplicationBuilder builder, IReadOnlyList<string> day, IResourceBuilder<IResource> publicApi) =>
        builder.AddLoadTestDay(day).WaitFor(publicApi);
}
