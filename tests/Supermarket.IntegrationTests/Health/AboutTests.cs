using System.Text.Json;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Health;

/// <summary>/about names the service and every setting it runs with (the load test's report quotes it), and never a
/// password, not even inside a connection string.</summary>
[Collection(nameof(SystemCollection))]
public sealed class AboutTests(SupermarketSystem system)
{
    [Fact]
    public async Task Every_process_says_what_it_runs_with_but_not_its_passwords()
    {
        using var http = new HttpClient();
        var abouts = new Dictionary<string, string>
        {
            ["Supermarket.Api"] = await system.Api.GetStringAsync("/about"),
            ["Supermarket.PurchasesWriter"] = await http.GetStringAsync(new Uri(system.WriterUrl, "/about")),
            ["Supermarket.SalesAggregator"] = await http.GetStringAsync(new Uri(system.AggregatorUrl, "/about")),
        };

        foreach (var (service, text) in abouts)
        {
            using var about = JsonDocument.Parse(text);
            var settings = about.RootElement.GetProperty("settings");
            // The workers here are hosted by the test process, so only the API's name is its own.
            Assert.False(string.IsNullOrEmpty(about.RootElement.GetProperty("service").GetString()));
            Assert.Equal(TestSettings.VirtualHost, settings.GetProperty("Broker").GetProperty("virtualHost").GetString());
            Assert.False(settings.GetProperty("Broker").TryGetProperty("password", out _), $"{service} shows the broker's password");
            if (settings.TryGetProperty("Database", out var databaseSettings))
            {
                Assert.False(databaseSettings.TryGetProperty("password", out _), $"{service} shows the database password");
            }

            foreach (var account in new[] { TestSettings.Accounts.BrokerApi, TestSettings.Accounts.BrokerWriter, TestSettings.Accounts.BrokerAggregator,
                         TestSettings.Accounts.DatabaseWriter, TestSettings.Accounts.DatabaseReader })
            {
                Assert.DoesNotContain(account.Password, text, StringComparison.Ordinal);
            }
        }

        using var writer = JsonDocument.Parse(abouts["Supermarket.PurchasesWriter"]);
        var database = writer.RootElement.GetProperty("settings").GetProperty("Database");
        Assert.Contains($"database={TestSettings.DatabaseName}", database.GetProperty("connectionString").GetString(), StringComparison.OrdinalIgnoreCase);
        Assert.True(database.GetProperty("maxConnections").GetInt32() > 0);
        using var api = JsonDocument.Parse(abouts["Supermarket.Api"]);
        Assert.Equal("Supermarket.Api", api.RootElement.GetProperty("service").GetString());
        Assert.True(api.RootElement.GetProperty("settings").TryGetProperty("Ingest", out _), "the API's own settings are missing");
    }
}
