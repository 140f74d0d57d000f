using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Supermarket.Api.History;
using Supermarket.Api.Insights;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Catalog;
using Supermarket.Messaging;

namespace Supermarket.Api.Tests;

/// <summary>The API's class defaults and its appsettings.json, with only the secrets that have no default, pass
/// every rule it checks at start (see WriterClassDefaultsTests). No broker is needed to start: the bus keeps
/// trying to connect meanwhile.</summary>
public sealed class ApiClassDefaultsTests
{
    [Fact]
    public async Task The_api_starts_on_its_class_defaults()
    {
        await using var api = new WebApplicationFactory<Program>().WithWebHostBuilder(host => host
            .UseSetting("Broker:Username", "api")
            .UseSetting("Broker:Password", "secret")
            // Nowhere: the test needs no broker, and must not reach one another test or a user runs.
            .UseSetting("Broker:Port", "1"));
        var services = api.Services;

        // Reading a value runs its validation, as ValidateOnStart did when the host started.
        Assert.Equal(new IngestOptions().BatchLinger, services.GetRequiredService<IOptions<IngestOptions>>().Value.BatchLinger);
        Assert.Equal(new CatalogOptions().MaxStoreId, services.GetRequiredService<IOptions<CatalogOptions>>().Value.MaxStoreId);
        Assert.Equal(new InsightOptions().TopItemsCount, services.GetRequiredService<IOptions<InsightOptions>>().Value.TopItemsCount);
        Assert.Equal(new HistoryQuestionOptions().PageSize, services.GetRequiredService<IOptions<HistoryQuestionOptions>>().Value.PageSize);
        Assert.Equal(new BrokerOptions().Heartbeat, services.GetRequiredService<IOptions<BrokerOptions>>().Value.Heartbeat);
    }
}
