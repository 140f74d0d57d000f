using System.Runtime.InteropServices;

namespace Supermarket.Faults;

/// <summary>Processes as Linux shows them in /proc, and signals to them: what a fault does to a resource's process,
/// which Aspire has no command for.</summary>
public static class ProcessTree
{
    public const int Kill = 9, Terminate = 15, Continue = 18, Stop = 19;

    /// <summary>The process and every process under it (a project's run host runs the service; RabbitMQ's start script
    /// runs the Erlang VM).</summary>
    public static IEnumerable<int> WithDescendants(int pid)
    {
        yield return pid;
        var children = ProcFile($"/proc/{pid}/task/{pid}/children") ?? "";
        foreach (var child in children.Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(int.Parse))
        {
            foreach (var descendant in WithDescendants(child))
            {
                yield return descendant;
            }
        }
    }

    /// <summary>The process doing a resource's work: the newest child of the one the AppHost started, if it has one.</summary>
    public static int Worker(int pid) =>
        (ProcFile($"/proc/{pid}/task/{pid}/children") ?? "").Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(int.Parse)
            .OrderByDescending(StartTicks).FirstOrDefault(pid);

    /// <summary>PID 1 here does not reap orphans: a zombie counts as gone.</summary>
    public static bool Alive(int pid) => ProcFile($"/proc/{pid}/stat") is { } stat && !stat.Split(") ").Last().StartsWith('Z');

    public static void Signal(int pid, int signal)
    {
        if (SendSignal(pid, signal) != 0)
        {
            throw new InvalidOperationException($"signal {signal} to process {pid} failed: errno {Marshal.GetLastPInvokeError()}");
        }
    }

    /// <summary>Field 22 of /proc/PID/stat: when the process started, in clock ticks since boot.</summary>
    private static long StartTicks(int pid) =>
        ProcFile($"/proc/{pid}/stat") is { } stat ? long.Parse(stat.Split(") ").Last().Split(' ')[19], System.Globalization.CultureInfo.InvariantCulture) : 0;

    /// <summary>A file of /proc, or null once its process is gone.</summary>
    private static string? ProcFile(string path)
    {
        try
        {
            return File.ReadAllText(path);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int SendSignal(int pid, int signal);
}
