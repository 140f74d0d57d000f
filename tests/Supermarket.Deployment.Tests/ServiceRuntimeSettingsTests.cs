using System.Text.Json;

namespace Supermarket.Deployment.Tests;

/// <summary>
/// The runtime settings the services are measured with (docs/performance.md) reach them through their
/// runtimeconfig.json, which the build writes from Directory.Build.targets; a project that stops inheriting them would
/// run differently from every figure measured.
/// </summary>
public sealed class ServiceRuntimeSettingsTests
{
    public static TheoryData<string> Programs() => ["Supermarket.Api", "Supermarket.PurchasesWriter", "Supermarket.SalesAggregator", "Supermarket.LoadTest"];

    [Theory]
    [MemberData(nameof(Programs))]
    public void A_program_runs_with_the_workstation_gc_without_a_background_thread_without_spinning_idle_workers_and_without_dynamic_pgo(string service)
    {
        // The test project references every service, so their runtimeconfig.json files are copied beside it.
        using var json = JsonDocument.Parse(File.ReadAllText(Path.Combine(AppContext.BaseDirectory, service + ".runtimeconfig.json")));
        var settings = json.RootElement.GetProperty("runtimeOptions").GetProperty("configProperties");

        Assert.False(settings.GetProperty("System.GC.Server").GetBoolean());
        Assert.False(settings.GetProperty("System.GC.Concurrent").GetBoolean());
        Assert.Equal("0", settings.GetProperty("System.Threading.ThreadPool.UnfairSemaphoreSpinLimit").ToString());
        Assert.False(settings.GetProperty("System.Runtime.TieredPGO").GetBoolean());
    }
}
