using Supermarket.Faults;
using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Chaos;

/// <summary>
/// Each chaos day as a load test process of its own (this program, against <see cref="ChaosOptions.Url"/>), or in
/// containers as the load test's container (scripts/containers.sh, where the deployment gives its address and
/// accounts): its reports in <c>output/name</c>, its console in <c>output/name.log</c>, its figures read back from
/// its summary.json with <see cref="RunResult"/>, the type that wrote them.
/// </summary>
public sealed class LoadTestDays(ChaosOptions options, string repository, string output) : IChaosDays
{
    /// <summary>A day's bound: the load test bounds its own parts (its retries, --retry-for; its verification,
    /// --verify-timeout; the database outage's day both), and a chaos day here takes minutes; one still running after
    /// an hour is hung, and killed.</summary>
    private static readonly TimeSpan DayPatience = TimeSpan.FromHours(1);

    public async Task<DayOutcome> RunAsync(string name, IReadOnlyList<string> arguments, Action loadBegins, CancellationToken cancellationToken)
    {
        var reports = Path.Combine(output, name);
        var log = Path.Combine(output, $"{name}.log");
        void Watch(string line)
        {
            if (LoadRun.BeginsTheLoad(line))
            {
                loadBegins();
            }
        }

        int exitCode;
        if (options.InContainers)
        {
            // The container writes its reports as the images' app user.
            Directory.CreateDirectory(reports);
            if (!OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(reports, (UnixFileMode)0b111_111_111);
            }

            exitCode = await ExternalCommand.RunLoggedAsync(Path.Combine(repository, "scripts", "containers.sh"),
                ["loadtest-reports", reports, .. arguments], log, DayPatience, cancellationToken, Watch);
        }
        else
        {
            exitCode = await ExternalCommand.RunLoggedAsync("dotnet",
                [typeof(LoadTestDays).Assembly.Location, "--url", options.Url.ToString(), .. arguments, "--reports", reports], log, DayPatience, cancellationToken, Watch);
        }

        var summary = Path.Combine(reports, "summary.json");
        return new DayOutcome(exitCode, File.Exists(summary) ? RunResult.Read(summary) : null, log);
    }
}
