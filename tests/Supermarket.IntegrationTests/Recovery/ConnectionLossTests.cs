using Dapper;
using MySqlConnector;
using Supermarket.IntegrationTests.Infrastructure;
using Supermarket.Messaging;

namespace Supermarket.IntegrationTests.Recovery;

/// <summary>A worker whose broker goes away while it is in the middle of messages gets every consumer back when the
/// broker returns, without a restart, and what was in flight is stored once. (They guard the path of the writer's
/// consumer lost after a broker restart, docs/reliability.md; the second test reproduced it until it was fixed.)</summary>
[Collection(nameof(SystemCollection))]
public sealed class ConnectionLossTests(SupermarketSystem system, TestedAppHost appHost)
{
    [Fact]
    public async Task A_broker_restart_while_the_writer_is_mid_batch_brings_every_consumer_back_and_loses_nothing()
    {
        await Purchases.RecordAsync(system.Api, 3, 3000, "20210105", (1, 1));
        var consumed = (await BrokerAdministrator.ConsumersAsync()).Where(queue => queue.Value > 0).Select(queue => queue.Key).ToArray();
        Assert.NotEmpty(consumed);

        // Hold the writer inside its transaction (and a history question inside its query) with a table lock, so
        // that the connection dies under messages it has taken but not yet acknowledged or answered.
        await using var locker = new MySqlConnection(TestSettings.OwnerConnectionString());
        await locker.OpenAsync();
        await locker.ExecuteAsync("LOCK TABLES purchases WRITE, idempotency_keys WRITE");
        Guid[] inFlight;
        Task<HttpResponseMessage>[] questions;
        try
        {
            // Enough for the writer to hold a full prefetch and leave a backlog in its queue.
            inFlight = await Task.WhenAll(Enumerable.Range(1, 2_000).Select(customer =>
                Purchases.RecordAsync(system.Api, 3, 3000 + customer, "20210105", (customer % 50 + 1, 1))));
            questions =
            [
                system.Api.GetAsync("/purchases/store/3?date=20210105"),
                system.Api.SendAsync(new HttpRequestMessage(HttpMethod.Post, "/purchase/3/customer/9200/date/20210105")
                {
                    Content = new StringContent(Purchases.Body((2, 1)), System.Text.Encoding.UTF8, "application/json"),
                    Headers = { { "Idempotency-Key", $"till-3/{Guid.NewGuid():N}" } },
                }),
            ];
            await Task.Delay(TimeSpan.FromMilliseconds(500));
            await appHost.Faults.StopAsync("rabbitmq", CancellationToken.None);
        }
        finally
        {
            await locker.ExecuteAsync("UNLOCK TABLES");
            // The writer finishes its transactions against a broker that is gone, then the broker comes back.
            await Task.Delay(TimeSpan.FromSeconds(2));
            await appHost.Faults.StartUntilHealthyAsync("rabbitmq", CancellationToken.None);
        }

        foreach (var question in questions)
        {
            (await question).Dispose();
        }

        var consumers = await Eventually.UntilAsync(BrokerAdministrator.ConsumersAsync,
            now => consumed.All(queue => now.GetValueOrDefault(queue) > 0), TimeSpan.FromSeconds(60));
        Assert.All(consumed, queue => Assert.True(consumers.GetValueOrDefault(queue) > 0, $"{queue} has no consumer"));

        var after = await Eventually.UntilAsync(
            async () => await Purchases.PostAsync(system.Api, "/purchase/3/customer/9100/date/20210105", Purchases.Body((9, 1))),
            response => response.StatusCode == System.Net.HttpStatusCode.Created, TimeSpan.FromSeconds(30));
        Assert.Equal(System.Net.HttpStatusCode.Created, after.StatusCode);
        await TestDatabase.AssertEachStoredOnceAsync(inFlight, TimeSpan.FromSeconds(30));
        await system.WaitUntilHealthyAsync();
    }

    /// <summary>On a database that holds years of history a transaction can take seconds, and a database in trouble
    /// may not answer at all: the broker's restart then finds the writer in the middle of commands that do not end
    /// soon and cannot be killed. Its queue must get its consumer back when the broker does, not when the database
    /// answers: a worker that waits for its slowest command before it reconnects consumes nothing meanwhile, and its
    /// backlog fills until the API sheds load. A table lock first holds the writer's transactions inside their INSERT;
    /// then MariaDB stops answering (SIGSTOP), so that cancelling them cannot reach it either.</summary>
    [Fact]
    public async Task A_broker_restart_while_the_database_stalls_gives_the_writer_its_consumer_back_before_the_database_answers()
    {
        await Purchases.RecordAsync(system.Api, 4, 4000, "20210106", (1, 1));
        Guid[] inFlight;
        Dictionary<string, uint> consumers;
        var consumerBackWithin = TimeSpan.FromSeconds(45);
        await using var locker = new MySqlConnection(TestSettings.OwnerConnectionString());
        await locker.OpenAsync();
        await locker.ExecuteAsync("LOCK TABLES purchases WRITE");
        try
        {
            // The API needs only the broker: these get their 201s, and the writer takes a full prefetch of them into
            // transactions that wait for the lock.
            inFlight = await Task.WhenAll(Enumerable.Range(1, 2_000).Select(customer =>
                Purchases.RecordAsync(system.Api, 4, 4000 + customer, "20210106", (customer % 50 + 1, 1))));
            await Task.Delay(TimeSpan.FromSeconds(1));
            await appHost.Faults.PauseAsync("mariadb", CancellationToken.None);
            try
            {
                await appHost.Faults.StopAsync("rabbitmq", CancellationToken.None);
                await appHost.Faults.StartUntilHealthyAsync("rabbitmq", CancellationToken.None);
                consumers = await Eventually.UntilAsync(BrokerAdministrator.ConsumersAsync,
                    now => now.GetValueOrDefault(Topology.PurchasesWriterQueue) > 0, consumerBackWithin);
            }
            finally
            {
                await appHost.Faults.ResumeAsync("mariadb", CancellationToken.None);
            }
        }
        finally
        {
            await locker.ExecuteAsync("UNLOCK TABLES");
        }

        Assert.True(consumers.GetValueOrDefault(Topology.PurchasesWriterQueue) > 0,
            $"the writer's queue had no consumer {consumerBackWithin.TotalSeconds} s after the broker came back, while the database stalled");
        await TestDatabase.AssertEachStoredOnceAsync(inFlight, TimeSpan.FromSeconds(60));
        await system.WaitUntilHealthyAsync();
    }
}
