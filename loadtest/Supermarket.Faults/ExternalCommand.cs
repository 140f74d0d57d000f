using System.Diagnostics;
using System.Text;

namespace Supermarket.Faults;

/// <summary>A program this machine has (the Aspire CLI, rabbitmqctl, mariadb, podman, git), run to its end within a
/// bound: what it printed, and its exit code.</summary>
public static class ExternalCommand
{
    /// <summary>Longer than any of them takes here; a command still running then is killed and fails.</summary>
    public static readonly TimeSpan DefaultPatience = TimeSpan.FromMinutes(2);

    /// <summary>How long what a command printed last may take to be read after it ended.</summary>
    private static readonly TimeSpan CopyingAfterExit = TimeSpan.FromSeconds(10);

    public static async Task<CommandResult> RunAsync(string program, IReadOnlyList<string> arguments, CancellationToken cancellationToken,
        string? workingDirectory = null, IReadOnlyDictionary<string, string>? environment = null, TimeSpan? patience = null)
    {
        using var process = Start(program, arguments, workingDirectory, environment);
        var (output, errors) = (new StringBuilder(), new StringBuilder());
        var copying = Task.WhenAll(CopyAsync(process.StandardOutput, output), CopyAsync(process.StandardError, errors));
        await WaitForExitAsync(process, patience ?? DefaultPatience, cancellationToken);
        // Bounded: a process it left behind may hold its pipes open long after it exited.
        await Task.WhenAny(copying, Task.Delay(CopyingAfterExit, CancellationToken.None));
        lock (output)
        {
            lock (errors)
            {
                return new CommandResult(process.ExitCode, output.ToString(), errors.ToString());
            }
        }
    }

    private static async Task CopyAsync(StreamReader from, StringBuilder to)
    {
        var buffer = new char[4096];
        while (await from.ReadAsync(buffer, CancellationToken.None) is var read and > 0)
        {
            lock (to)
            {
                to.Append(buffer, 0, read);
            }
        }
    }

    /// <summary>A long command (a chaos day's load test, a build) run to its end within <paramref name="patience"/>,
    /// what it prints, output and errors alike, appended line by line to <paramref name="log"/> as it goes: a run
    /// that is killed leaves its log up to that point. Returns its exit code.</summary>
    /// <param name="onLine">Shown each line as it is logged.</param>
    public static async Task<int> RunLoggedAsync(string program, IReadOnlyList<string> arguments, string log, TimeSpan patience,
        CancellationToken cancellationToken, Action<string>? onLine = null)
    {
        using var process = Start(program, arguments, workingDirectory: null, environment: null);
        using var output = TextWriter.Synchronized(
            new StreamWriter(new FileStream(log, FileMode.Append, FileAccess.Write, FileShare.ReadWrite)) { AutoFlush = true });
        async Task CopyAsync(StreamReader from)
        {
            while (await from.ReadLineAsync(CancellationToken.None) is { } line)
            {
                output.WriteLine(line);
                onLine?.Invoke(line);
            }
        }

        var copying = Task.WhenAll(CopyAsync(process.StandardOutput), CopyAsync(process.StandardError));
        try
        {
            await WaitForExitAsync(process, patience, cancellationToken);
        }
        finally
        {
            // The copies end as the process's pipes close, at its exit or its kill, before the log is closed; bounded,
            // in case something it started outside its tree keeps them open.
            await Task.WhenAny(copying, Task.Delay(CopyingAfterExit, CancellationToken.None));
        }

        return process.ExitCode;
    }

    private static Process Start(string program, IReadOnlyList<string> arguments, string? workingDirectory, IReadOnlyDictionary<string, string>? environment)
    {
        var start = new ProcessStartInfo(program)
        {
            // Nothing to read: a tool that would read its input (podman) gets its end at once.
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = workingDirectory ?? Environment.CurrentDirectory,
        };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        var process = Process.Start(start) ?? throw new InvalidOperationException($"{program} did not start");
        process.StandardInput.Close();
        return process;
    }

    /// <summary>Waits for the process within <paramref name="patience"/>; killed (its whole tree) when that passes or
    /// the caller cancels.</summary>
    private static async Task WaitForExitAsync(Process process, TimeSpan patience, CancellationToken cancellationToken)
    {
        using var bound = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bound.CancelAfter(patience);
        try
        {
            await process.WaitForExitAsync(bound.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            cancellationToken.ThrowIfCancellationRequested();
            throw new TimeoutException($"{process.StartInfo.FileName} {string.Join(' ', process.StartInfo.ArgumentList)} did not end within {patience.TotalSeconds:F0} s");
        }
    }

    /// <summary>The same, failing unless it exits 0; returns what it printed.</summary>
    public static async Task<string> OutputAsync(string program, IReadOnlyList<string> arguments, CancellationToken cancellationToken,
        string? workingDirectory = null, IReadOnlyDictionary<string, string>? environment = null, TimeSpan? patience = null)
    {
        var result = await RunAsync(program, arguments, cancellationToken, workingDirectory, environment, patience);
        return result.ExitCode == 0
            ? result.Output
            : throw new InvalidOperationException($"{program} {string.Join(' ', arguments)} exited with {result.ExitCode}: {result.Errors.Trim()}{result.Output.Trim()}");
    }
}

public sealed record CommandResult(int ExitCode, string Output, string Errors);
