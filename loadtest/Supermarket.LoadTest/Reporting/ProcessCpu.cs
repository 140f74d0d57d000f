using System.Globalization;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// The CPU time each part of the system used on this machine, read from Linux's /proc: a snapshot before and after a
/// phase of the run (the day, the verification), so a figure such as "MariaDB's CPU a purchase" counts the day alone
/// and not the checks that read the whole history after it. Processes are named by what they run; the load generator
/// is this process. The machine's total is the scheduler's exact count for every task (the root cgroup's CPU usage):
/// /proc/stat's ticks, on this box's VM, missed a quarter to half of a light load of short wakes. Empty where there is
/// no /proc (the system then runs elsewhere, or on another OS).
/// </summary>
public sealed class ProcessCpu
{
    /// <summary>Linux reports CPU time in clock ticks of USER_HZ, which its ABI fixes at 100 a second.</summary>
    public const double TicksPerSecond = 100;

    public const string Machine = "machine";
    public const string LoadGenerator = "load generator";

    private readonly Dictionary<(string Name, int Pid), long> _ticks;
    private readonly TimeSpan? _machine;
    private readonly TimeSpan _loadGenerator;

    private ProcessCpu(Dictionary<(string, int), long> ticks, TimeSpan? machine, TimeSpan loadGenerator) =>
        (_ticks, _machine, _loadGenerator) = (ticks, machine, loadGenerator);

    public static ProcessCpu Snapshot(string proc = "/proc", string cgroups = "/sys/fs/cgroup")
    {
        var ticks = new Dictionary<(string, int), long>();
        if (!Directory.Exists(proc))
        {
            return new ProcessCpu(ticks, null, TimeSpan.Zero);
        }

        foreach (var (pid, commandLine, used) in Processes(proc))
        {
            if (NameOf(commandLine) is { } name)
            {
                ticks[(name, pid)] = used;
            }
        }

        using var self = System.Diagnostics.Process.GetCurrentProcess();
        return new ProcessCpu(ticks, MachineTime(proc, cgroups), self.TotalProcessorTime);
    }

    /// <summary>Every process /proc lists with its command line (NULs as spaces) and utime + stime in ticks.</summary>
    public static IEnumerable<(int Pid, string CommandLine, long Ticks)> Processes(string proc = "/proc")
    {
        foreach (var folder in Directory.EnumerateDirectories(proc))
        {
            if (!int.TryParse(Path.GetFileName(folder), NumberStyles.None, CultureInfo.InvariantCulture, out var pid))
            {
                continue;
            }

            string commandLine;
            long? used;
            try
            {
                commandLine = File.ReadAllText(Path.Combine(folder, "cmdline")).Replace('\0', ' ');
                used = ProcessTicks(File.ReadAllText(Path.Combine(folder, "stat")));
            }
            catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
            {
                // The process ended between the listing and the read: what it used is in the machine's total.
                continue;
            }

            if (used is { } ticks)
            {
                yield return (pid, commandLine, ticks);
            }
        }
    }

    /// <summary>The CPU every task has used: cgroup v2's root <c>cpu.stat</c>, v1's root <c>cpuacct.usage</c>, else
    /// /proc/stat's busy ticks; null without any of them.</summary>
    public static TimeSpan? MachineTime(string proc, string cgroups)
    {
        var unified = Path.Combine(cgroups, "cpu.stat");
        if (File.Exists(unified) && File.ReadLines(unified).FirstOrDefault(line => line.StartsWith("usage_usec ", StringComparison.Ordinal)) is { } usage)
        {
            return TimeSpan.FromMicroseconds(long.Parse(usage["usage_usec ".Length..], CultureInfo.InvariantCulture));
        }

        var accounting = Path.Combine(cgroups, "cpuacct", "cpuacct.usage");
        if (File.Exists(accounting))
        {
            return TimeSpan.FromTicks(long.Parse(File.ReadAllText(accounting).Trim(), CultureInfo.InvariantCulture) / 100);
        }

        var stat = Path.Combine(proc, "stat");
        return File.Exists(stat) ? TimeSpan.FromSeconds(MachineTicks(File.ReadAllText(stat)) / TicksPerSecond) : null;
    }

    /// <summary>CPU seconds each part used from <paramref name="before"/> to this snapshot, with the machine's total
    /// and the load generator's. A process counts only if it ran at both snapshots (by PID): one that started or
    /// ended between them (a build, a kernel worker) is in the machine's total only.</summary>
    public IReadOnlyDictionary<string, double> Since(ProcessCpu before)
    {
        var used = new SortedDictionary<string, double>(StringComparer.Ordinal);
        if (_machine is not { } machine || before._machine is not { } machineBefore)
        {
            return used;
        }

        foreach (var ((name, pid), ticks) in _ticks)
        {
            if (before._ticks.TryGetValue((name, pid), out var earlier))
            {
                used[name] = used.GetValueOrDefault(name) + ((ticks - earlier) / TicksPerSecond);
            }
        }

        used[LoadGenerator] = (_loadGenerator - before._loadGenerator).TotalSeconds;
        used[Machine] = (machine - machineBefore).TotalSeconds;
        return used;
    }

    /// <summary>What a process is, from its command line; null for processes that are not the system's.</summary>
    public static string? NameOf(string commandLine) => commandLine switch
    {
        "" => "kernel threads",
        _ when commandLine.Contains("/Supermarket.Api ", StringComparison.Ordinal) => "api",
        _ when commandLine.Contains("/Supermarket.PurchasesWriter ", StringComparison.Ordinal) => "writer",
        _ when commandLine.Contains("/Supermarket.SalesAggregator ", StringComparison.Ordinal) => "aggregator",
        _ when commandLine.Contains("Supermarket.Ceiling", StringComparison.Ordinal) => "ceiling",
        _ when commandLine.Contains("Supermarket.AppHost", StringComparison.Ordinal) || commandLine.Contains("/aspire run ", StringComparison.Ordinal)
            || (commandLine.StartsWith("dotnet run ", StringComparison.Ordinal) && commandLine.Contains("/src/Supermarket.", StringComparison.Ordinal))
            => "apphost and run hosts",
        _ when commandLine.StartsWith("nginx:", StringComparison.Ordinal) => "nginx",
        _ when commandLine.Contains("beam.smp", StringComparison.Ordinal) => "rabbitmq",
        _ when commandLine.Contains("mariadbd", StringComparison.Ordinal) => "mariadb",
        _ when commandLine.Contains("Aspire.Dashboard", StringComparison.Ordinal) => "dashboard",
        _ when commandLine.Contains("/dcp ", StringComparison.Ordinal) => "dcp",
        _ => null,
    };

    /// <summary>utime + stime of a /proc/PID/stat line. The command name in parentheses may hold spaces and
    /// parentheses, so the fields are counted from its closing one: utime and stime are the 12th and 13th after it.</summary>
    public static long? ProcessTicks(string stat)
    {
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return fields.Length > 12 && long.TryParse(fields[11], CultureInfo.InvariantCulture, out var user)
            && long.TryParse(fields[12], CultureInfo.InvariantCulture, out var system)
            ? user + system
            : null;
    }

    /// <summary>The machine's busy ticks from /proc/stat's first line: user, nice, system, irq and softirq (not idle
    /// nor iowait, which are waiting). Sampled at each tick, so a light load of short wakes may pass unseen.</summary>
    public static long MachineTicks(string stat)
    {
        var fields = stat.AsSpan(0, stat.IndexOf('\n') is var end and >= 0 ? end : stat.Length).ToString()
            .Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return new[] { 1, 2, 3, 6, 7 }.Sum(i => long.Parse(fields[i], CultureInfo.InvariantCulture));
    }
}
