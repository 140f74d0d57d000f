using System.CommandLine;
using System.Globalization;

namespace Supermarket.LoadTest.Reporting;

/// <summary>The <c>machine-cpu</c> command: the CPU seconds every task of this machine has used so far, as
/// <see cref="ProcessCpu"/> counts them, for loadtest/measure.sh's windows (the difference of two readings).</summary>
public sealed class MachineCpuCommandLine
{
    public MachineCpuCommandLine()
    {
        Command = new Command("machine-cpu", "print the CPU seconds every task of this machine has used so far (the scheduler's count)");
        Command.SetAction(_ =>
        {
            if (ProcessCpu.MachineTime("/proc", "/sys/fs/cgroup") is not { } used)
            {
                Console.Error.WriteLine("No /proc nor cgroup CPU accounting here: the machine's CPU cannot be read.");
                return 1;
            }

            Console.WriteLine(used.TotalSeconds.ToString("F3", CultureInfo.InvariantCulture));
            return 0;
        });
    }

    public Command Command { get; }
}
