using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Supermarket.Database;
using Supermarket.PurchasesWriter;
using Supermarket.PurchasesWriter.History;
using Supermarket.PurchasesWriter.Recording;

namespace Supermarket.PurchasesWriter.Tests;

/// <summary>
/// Each default lives in its options class, and appsettings carry only what differs from it: so the class defaults
/// alone, with nothing but the secrets that have none, must pass every rule the service checks at start.
/// </summary>
public sealed class WriterClassDefaultsTests
{
    [Fact]
    public void The_writer_starts_on_its_class_defaults()
    {
        using var services = Writer();

        // Reading a value runs its validation, as ValidateOnStart does at start.
        Assert.Equal(new DatabaseOptions().MaxConnections, services.GetRequiredService<IOptions<DatabaseOptions>>().Value.MaxConnections);
        Assert.Equal(new WriterOptions().BatchConcurrency, services.GetRequiredService<IOptions<WriterOptions>>().Value.BatchConcurrency);
        Assert.Equal(new HistoryQueryOptions().ConcurrentQueries, services.GetRequiredService<IOptions<HistoryQueryOptions>>().Value.ConcurrentQueries);
    }

    [Fact]
    public void The_writers_connection_rule_refuses_too_small_a_pool()
    {
        using var services = Writer(("Database:MaxConnections", "8"));

        var refused = Assert.Throws<OptionsValidationException>(() => services.GetRequiredService<IOptions<WriterOptions>>().Value);
        Assert.Contains("Database:MaxConnections", refused.Message, StringComparison.Ordinal);
    }

    /// <summary>The writer's services as Program.cs registers them, given only the secrets that have no default and
    /// <paramref name="settings"/>.</summary>
    private static ServiceProvider Writer(params (string Key, string Value)[] settings)
    {
        var builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Database:User"] = "writer",
            ["Database:Password"] = "secret",
            ["Broker:Username"] = "writer",
            ["Broker:Password"] = "secret",
        });
        builder.Configuration.AddInMemoryCollection(settings.Select(setting => new KeyValuePair<string, string?>(setting.Key, setting.Value)));
        builder.AddPurchaseRecording();
        return builder.Services.BuildServiceProvider();
    }
}
