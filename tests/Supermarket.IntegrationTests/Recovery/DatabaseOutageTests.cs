extern alias Writer;

using Writer::Supermarket.PurchasesWriter;
using Supermarket.IntegrationTests.Infrastructure;
using Supermarket.Messaging;

namespace Supermarket.IntegrationTests.Recovery;

/// <summary>A database that is away for many of the writer's retries (a maintenance window, a failover) must not
/// move acknowledged purchases out of the writer's path: nothing waits for a person to move it back.</summary>
[Collection(nameof(SystemCollection))]
public sealed class DatabaseOutageTests(SupermarketSystem system, TestedAppHost appHost)
{
    [Fact]
    public async Task An_outage_over_many_retries_parks_nothing_and_stores_everything_once_it_is_back()
    {
        var settings = TestSettings.For();
        // Retries a second apart; the outage below lasts twelve of them.
        settings["Writer:RetryMaxInterval"] = "00:00:01";
        var errorQueue = Topology.PurchasesWriterQueue + "_error";
        var parkedBefore = await BrokerAdministrator.MessagesAsync(errorQueue);
        await system.StopWriterAsync();
        try
        {
            await using var writer = await SupermarketSystem.StartWorkerAsync(Worker.Writer, settings);
            Guid[] acknowledged;
            await appHost.Faults.StopAsync("mariadb", CancellationToken.None);
            try
            {
                acknowledged = await Task.WhenAll(Enumerable.Range(1, 50).Select(customer =>
                    Purchases.RecordAsync(system.Api, 486, 486_000 + customer, "20210304", ((customer % 20) + 1, 1))));
                await Task.Delay(TimeSpan.FromSeconds(12));
                using var health = new HttpClient { BaseAddress = writer.Url };
                var away = await health.GetAsync("/health/ready");
                Assert.Equal(System.Net.HttpStatusCode.ServiceUnavailable, away.StatusCode);
                Assert.Contains("the database has been away", await away.Content.ReadAsStringAsync(), StringComparison.Ordinal);
                Assert.Matches(@"(?m)^supermarket_writer_database_away\{[^}]*\} 1", await health.GetStringAsync("/metrics"));
            }
            finally
            {
                await appHost.Faults.StartUntilHealthyAsync("mariadb", CancellationToken.None);
            }

            await TestDatabase.AssertEachStoredOnceAsync(acknowledged, TimeSpan.FromSeconds(90));
            Assert.Equal(parkedBefore, await BrokerAdministrator.MessagesAsync(errorQueue));
            await SupermarketSystem.WaitUntilReadyAsync(writer);
        }
        finally
        {
            await system.StartWriterAsync();
        }

        await system.WaitUntilHealthyAsync();
    }
}
