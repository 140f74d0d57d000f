using System.Diagnostics;

namespace Supermarket.Faults;

/// <summary>A program this machine has (the Aspire CLI, rabbitmqctl, mariadb, podman, git), run to its end within a
/// bound: what it printed, and its exit code.</summary>
public static class ExternalCommand
{
    /// <summary>Longer than any of them takes here; a command still running then is killed and fails.</summary>
    public static readonly TimeSpan DefaultPatience = TimeSpan.FromMinutes(2);

    public static async Task<CommandResult> RunAsync(string program, IReadOnlyList<string> arguments, CancellationToken cancellationToken,
        string? workingDirectory = null, IReadOnlyDictionary<string, string>? environment = null, TimeSpan? patience = null)
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

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{program} did not start");
        process.StandardInput.Close();
        var output = process.StandardOutput.ReadToEndAsync(CancellationToken.None);
        var errors = process.StandardError.ReadToEndAsync(CancellationToken.None);
        using var bound = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        bound.CancelAfter(patience ?? DefaultPatience);
        try
        {
            await process.WaitForExitAsync(bound.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            cancellationToken.ThrowIfCancellationRequested();
            throw new TimeoutException($"{program} {string.Join(' ', start.ArgumentList)} did not end within {(patience ?? DefaultPatience).TotalSeconds:F0} s");
        }

        return new CommandResult(process.ExitCode, await output, await errors);
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
