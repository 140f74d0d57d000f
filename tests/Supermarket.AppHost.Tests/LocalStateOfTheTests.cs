using System.Runtime.CompilerServices;

namespace Supermarket.AppHost.Tests;

/// <summary>The AppHost writes this machine's accounts and the services' configuration into the local state as it
/// builds its model: here a folder of this test run, never the checkout's .local.</summary>
internal static class LocalStateOfTheTests
{
    public static readonly string Directory = Path.Combine(Path.GetTempPath(), $"supermarket-apphost-tests-{Environment.ProcessId}");

    [ModuleInitializer]
    internal static void UseOwnFolder() => Environment.SetEnvironmentVariable("SUPERMARKET_STATE_DIR", Directory);
}
