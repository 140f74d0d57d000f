using System.CommandLine;
using System.Globalization;
using System.Text.Json;

namespace Supermarket.LoadTest.Reporting;

/// <summary>The <c>idle</c> command: what the system's processes use with nothing asked of them, as a share of one core
/// over <c>--seconds</c>, from /proc (<see cref="ProcessCpu"/>): what runs every second for nobody (loadtest/measure.sh's
/// IDLE=1).</summary>
public sealed class IdleCommandLine
{
    private readonly Option<int> _seconds = new("--seconds")
    {
        Description = "how long to watch",
        DefaultValueFactory = _ => 60,
    };

    public IdleCommandLine()
    {
        _seconds.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<int>() is < 1 or > 3_600)
            {
                result.AddError("--seconds must be 1 to 3,600");
            }
        });
        Command = new Command("idle", "print, as one JSON line, each of the system's processes' CPU as a percentage of one core while nothing is asked of them, "
            + "and the system's total (every process but this one)") { _seconds };
        Command.SetAction(async (parsed, cancel) =>
        {
            var seconds = parsed.GetValue(_seconds);
            var before = ProcessCpu.Snapshot();
            await Task.Delay(TimeSpan.FromSeconds(seconds), cancel);
            Console.WriteLine(JsonSerializer.Serialize(SharesOfACore(ProcessCpu.Snapshot().Since(before), TimeSpan.FromSeconds(seconds))));
            return 0;
        });
    }

    public Command Command { get; }

    /// <summary>Each part's CPU seconds over <paramref name="over"/> as a percentage of one core, rounded to a tenth,
    /// with <c>system</c>: the system's processes together (not this one, the kernel's threads or the machine).</summary>
    public static IReadOnlyDictionary<string, double> SharesOfACore(IReadOnlyDictionary<string, double> cpuSeconds, TimeSpan over)
    {
        var shares = new SortedDictionary<string, double>(StringComparer.Ordinal);
        foreach (var (part, seconds) in cpuSeconds)
        {
            shares[part] = Percent(seconds);
        }

        if (shares.Count > 0)
        {
            shares[System] = Percent(cpuSeconds
                .Where(part => part.Key is not (ProcessCpu.Machine or ProcessCpu.LoadGenerator or KernelThreads))
                .Sum(part => part.Value));
        }

        return shares;

        double Percent(double seconds) => Math.Round(seconds * 100 / over.TotalSeconds, 1, MidpointRounding.AwayFromZero);
    }

    public const string System = "system";

    private const string KernelThreads = "kernel threads";
}
