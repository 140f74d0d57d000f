using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Supermarket.Faults;
using Supermarket.Security;

namespace Supermarket.LoadTest.Chaos;

/// <summary>
/// The rolling-upgrade scenario's writer: the release before the newest migration (the parent of the commit that added
/// it; <c>-M</c>, so that the folder's move from the writer to Supermarket.Database counts as the move it is, not as six
/// new migrations), built from git into <paramref name="folder"/> and run beside today's writer, as a process of the
/// chaos run (the AppHost holds the system, not its tests). Only src/ and the build's own files are copied, and that
/// copy is removed once the previous writer has stopped (its logs stay): a copy of the repository left there would
/// hold second copies of its projects, which BenchmarkDotNet, looking for its project under the checkout, then
/// refuses to build.
/// </summary>
public sealed class PreviousWriter(SystemFaults faults, string repository, string folder, TextWriter log)
{
    /// <summary>The folder of the local state it is built in.</summary>
    public const string StateFolder = "previous-writer";

    private static readonly string[] Migrations = ["src/Supermarket.Database/Schema/Migrations", "src/Supermarket.PurchasesWriter/Storage/Migrations"];

    private static readonly string[] Built = ["src", "Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props", "global.json", ".editorconfig"];

    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(10) };

    private Process? _process;
    private Uri? _management;

    public async Task BuildAsync(CancellationToken cancellationToken)
    {
        var added = (await ExternalCommand.OutputAsync("git", ["-C", repository, "log", "-1", "-M", "--diff-filter=A", "--format=%H", "--", .. Migrations], cancellationToken)).Trim();
        if (Directory.Exists(folder))
        {
            Directory.Delete(folder, recursive: true);
        }

        Directory.CreateDirectory(folder);
        var archive = Path.Combine(folder, "source.tar");
        await ExternalCommand.OutputAsync("git", ["-C", repository, "archive", "--format=tar", "-o", archive, $"{added}^", "--", .. Built], cancellationToken);
        await ExternalCommand.OutputAsync("tar", ["-xf", archive, "-C", folder], cancellationToken);
        File.Delete(archive);
        log.WriteLine($"building the writer of {added[..7]}^ (before the newest migration) in {folder}");
        var built = await ExternalCommand.RunLoggedAsync("dotnet", ["build", Path.Combine(folder, "src", "Supermarket.PurchasesWriter"), "-c", "Release", "-v", "q", "-nologo"],
            Path.Combine(folder, "build.log"), TimeSpan.FromMinutes(10), cancellationToken);
        if (built != 0)
        {
            throw new InvalidOperationException($"building the previous writer failed; see {Path.Combine(folder, "build.log")}");
        }
    }

    /// <summary>Started with today's writer's settings (the AppHost's broker and database, its telemetry), the writer's
    /// broker account and the schema owner's database account: it migrated at its own start, as the deployments of its day ran it. Returns once it is
    /// ready; its console goes to console.log beside its build.</summary>
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var today = await faults.Resources.DescribeAsync("purchases-writer", cancellationToken);
        // The Aspire CLI does not show secrets: the accounts come from where the AppHost read them.
        var accounts = LocalAccounts.Find() ?? throw new InvalidOperationException("No local accounts: the AppHost makes them at its first start.");
        var port = FreePort();
        var output = Path.Combine(folder, "src", "Supermarket.PurchasesWriter", "bin", "Release", "net10.0");
        var start = new ProcessStartInfo(Path.Combine(output, "Supermarket.PurchasesWriter"), ["--urls", $"http://127.0.0.1:{port}"])
        {
            WorkingDirectory = output,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var (name, value) in today.Environment)
        {
            start.Environment[name] = value;
        }

        start.Environment["ASPNETCORE_URLS"] = null;
        start.Environment["Broker__Username"] = accounts.BrokerWriter.User;
        start.Environment["Broker__Password"] = accounts.BrokerWriter.Password;
        start.Environment["Database__User"] = accounts.DatabaseOwner.User;
        start.Environment["Database__Password"] = accounts.DatabaseOwner.Password;
        start.Environment["OTEL_SERVICE_NAME"] = StateFolder;
        start.Environment["OTEL_RESOURCE_ATTRIBUTES"] = $"service.instance.id={StateFolder}";
        _process = Process.Start(start) ?? throw new InvalidOperationException("the previous writer did not start");
        _ = CopyAsync(_process, Path.Combine(folder, "console.log"));
        _management = new Uri($"http://127.0.0.1:{port}/");
        log.WriteLine($"the previous writer runs as process {_process.Id} on {_management}");

        var deadline = DateTime.UtcNow + TimeSpan.FromMinutes(2);
        while (!await ReadyAsync(cancellationToken))
        {
            if (_process.HasExited || DateTime.UtcNow >= deadline)
            {
                throw new InvalidOperationException($"the previous writer was not ready within 2 minutes; see {Path.Combine(folder, "console.log")}");
            }

            await Task.Delay(500, cancellationToken);
        }
    }

    /// <summary>Stopped (SIGTERM, as a deployment stops a release) once it has stored purchases beside today's writer:
    /// a rolling upgrade where it took nothing proves nothing.</summary>
    /// <returns>How many it stored.</returns>
    public async Task<long> StopAsync(CancellationToken cancellationToken)
    {
        var process = _process ?? throw new InvalidOperationException("the previous writer was not started");
        var metrics = await Http.GetStringAsync(new Uri(_management!, "metrics"), cancellationToken);
        var stored = metrics.Split('\n')
            .Where(line => line.StartsWith("supermarket_writer_purchases_stored_total", StringComparison.Ordinal))
            .Sum(line => (long)double.Parse(line.Split(' ')[^1], CultureInfo.InvariantCulture));
        ProcessTree.Signal(process.Id, ProcessTree.Terminate);
        using (var patience = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
        {
            patience.CancelAfter(SystemFaults.DownPatience);
            try
            {
                await process.WaitForExitAsync(patience.Token);
            }
            catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
            {
                process.Kill(entireProcessTree: true);
                throw new InvalidOperationException($"the previous writer did not stop within {SystemFaults.DownPatience.TotalSeconds:F0} s of SIGTERM");
            }
        }

        process.Dispose();
        _process = null;
        if (stored == 0)
        {
            throw new InvalidOperationException($"the previous writer stored nothing while it ran beside today's; see {Path.Combine(folder, "console.log")}");
        }

        // Used: no project of the previous release stays in the checkout; its build and console logs stay, to read.
        Directory.Delete(Path.Combine(folder, "src"), recursive: true);
        return stored;
    }

    private async Task<bool> ReadyAsync(CancellationToken cancellationToken)
    {
        try
        {
            using var ready = await Http.GetAsync(new Uri(_management!, "health/ready"), cancellationToken);
            return ready.IsSuccessStatusCode;
        }
        catch (HttpRequestException)
        {
            return false;
        }
    }

    private static async Task CopyAsync(Process process, string path)
    {
        await using var console = new StreamWriter(path, append: false) { AutoFlush = true };
        async Task CopyLinesAsync(StreamReader from)
        {
            while (await from.ReadLineAsync() is { } line)
            {
                await console.WriteLineAsync(line);
            }
        }

        await Task.WhenAll(CopyLinesAsync(process.StandardOutput), CopyLinesAsync(process.StandardError));
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
