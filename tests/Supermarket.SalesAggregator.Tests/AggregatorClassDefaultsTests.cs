using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Supermarket.Contracts.Catalog;
using Supermarket.Database;
using Supermarket.SalesAggregator.Questions;

namespace Supermarket.SalesAggregator.Tests;

/// <summary>The aggregator's class defaults alone, with only the secrets that have none, pass every rule it checks at
/// start (see WriterClassDefaultsTests).</summary>
public sealed class AggregatorClassDefaultsTests
{
    [Fact]
    public void The_aggregator_starts_on_its_class_defaults()
    {
        var builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Database:User"] = "reader",
            ["Database:Password"] = "secret",
            ["Broker:Username"] = "aggregator",
            ["Broker:Password"] = "secret",
        });
        builder.AddSalesAggregation();
        using var services = builder.Services.BuildServiceProvider();

        // Reading a value runs its validation, as ValidateOnStart does at start.
        Assert.Equal(new CatalogOptions().MaxItemId, services.GetRequiredService<IOptions<CatalogOptions>>().Value.MaxItemId);
        Assert.Equal(new AggregatorOptions().LedgerPageSize, services.GetRequiredService<IOptions<AggregatorOptions>>().Value.LedgerPageSize);
        Assert.Equal(new DatabaseOptions().MaxConnections, services.GetRequiredService<IOptions<DatabaseOptions>>().Value.MaxConnections);
    }
}
