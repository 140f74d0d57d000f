using System.Diagnostics;

namespace Supermarket.LoadTest.Chaos;

/// <summary>A command run to its end, its output and errors appended to a log file.</summary>
public static class ChildProcess
{
    public static async Task<int> RunAsync(string program, IReadOnlyList<string> arguments, string log, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{program} did not start");
        using var output = TextWriter.Synchronized(
            new StreamWriter(new FileStream(log, FileMode.Append, FileAccess.Write, FileShare.ReadWrite)) { AutoFlush = true });
        async Task CopyAsync(StreamReader from)
        {
            while (await from.ReadLineAsync(CancellationToken.None) is { } line)
            {
                output.WriteLine(line);
            }
        }

        var copying = Task.WhenAll(CopyAsync(process.StandardOutput), CopyAsync(process.StandardError));
        try
        {
            await process.WaitForExitAsync(cancellationToken);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }

        await copying;
        return process.ExitCode;
    }
}
