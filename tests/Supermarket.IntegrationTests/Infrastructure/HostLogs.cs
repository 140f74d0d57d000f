extern alias LoadTest;

using Microsoft.Extensions.Logging;
using Serilog;
using Serilog.Extensions.Logging;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>
/// The warnings and errors of the hosts a test starts in this process (the API, the writer, the aggregator), in
/// <c>.local/test-results/in-process-hosts.log</c> beside the TRX files: a 500 or a fault in a test shows its exception
/// there, where the test's own output shows only a status code.
/// </summary>
public static class HostLogs
{
    private static readonly Lazy<Serilog.ILogger> File = new(() =>
    {
        var root = LoadTest::Supermarket.LoadTest.Repository.Root() ?? throw new InvalidOperationException("The checkout is not above the tests.");
        var folder = Directory.CreateDirectory(Path.Combine(root, ".local", "test-results"));
        return new LoggerConfiguration()
            .MinimumLevel.Warning()
            .WriteTo.File(Path.Combine(folder.FullName, "in-process-hosts.log"),
                outputTemplate: "{Timestamp:HH:mm:ss.fff} {Level:u3} [{Host}] {SourceContext}: {Message:lj}{NewLine}{Exception}")
            .CreateLogger();
    });

    /// <summary>Adds the file to a host's logging, its lines marked with <paramref name="host"/>.</summary>
    public static ILoggingBuilder AddHostLog(this ILoggingBuilder logging, string host) =>
        logging.AddProvider(new SerilogLoggerProvider(File.Value.ForContext("Host", host), dispose: false));
}
