extern alias Writer;

using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Writer::Supermarket.PurchasesWriter;
using Supermarket.Messaging;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Storage;

/// <summary>When storage cannot keep up, what waits for it is bounded: the API sheds load with 503 instead of
/// accepting without limit, and every purchase that got a 201 is stored once the writer is back.</summary>
[Collection(nameof(SystemCollection))]
public sealed class StorageBacklogTests(SupermarketSystem system)
{
    [Fact]
    public async Task With_the_writer_stopped_the_backlog_fills_to_its_limit_then_POSTs_get_503_and_every_201_is_stored_later()
    {
        var settings = TestSettings.For();
        settings["Writer:BacklogLimitMegabytes"] = "1";
        await system.StopWriterAsync();
        // The limit is an argument of the queue, fixed when the writer, its only owner, declares it. A writer given
        // the small limit declares the queue anew and stops; what the API accepts meanwhile waits in the queue.
        await BrokerAdministrator.DeleteQueueAsync(Topology.PurchasesWriterQueue);
        await (await SupermarketSystem.StartWorkerAsync(Worker.Writer, settings)).DisposeAsync();
        await using var api = new SupermarketSystem.ApiFactory(settings);
        using var client = api.CreateClient();
        await SupermarketSystem.WaitUntilReadyAsync(client);

        var accepted = new ConcurrentBag<Guid>();
        var refused = new ConcurrentBag<(TimeSpan Took, TimeSpan? RetryAfter)>();
        // 100 lines a purchase: about 2 KB a message, so 1 MB holds some 500 purchases; 4,000 would need 8 MB.
        var body = Purchases.Body([.. Enumerable.Range(1, 100).Select(item => (item, 1))]);
        var sent = 0;
        await Task.WhenAll(Enumerable.Range(0, 16).Select(async worker =>
        {
            while (Interlocked.Increment(ref sent) <= 4_000 && refused.IsEmpty)
            {
                var started = Stopwatch.GetTimestamp();
                using var response = await Purchases.PostAsync(client, $"/purchase/497/customer/{worker + 1}/date/20210101", body);
                if (response.StatusCode == HttpStatusCode.Created)
                {
                    accepted.Add((await response.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("purchaseId").GetGuid());
                }
                else
                {
                    Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
                    refused.Add((Stopwatch.GetElapsedTime(started), response.Headers.RetryAfter?.Delta));
                }
            }
        }));

        Assert.NotEmpty(refused);
        Assert.InRange(accepted.Count, 100, 2_000);
        Assert.All(refused, refusal => Assert.NotNull(refusal.RetryAfter));
        // Refused by the broker at once, not at the request deadline.
        Assert.Contains(refused, refusal => refusal.Took < TimeSpan.FromSeconds(2));

        await using (var draining = await SupermarketSystem.StartWorkerAsync(Worker.Writer, settings))
        {
            var ids = accepted.ToArray();
            var stored = await Eventually.UntilAsync(async () => await StoredAsync(ids), count => count == ids.Length, TimeSpan.FromSeconds(60));
            Assert.Equal(ids.Length, stored);
            await draining.StopAsync();
        }

        // The queue is empty again; the other tests' writer declares it with the default limit.
        await BrokerAdministrator.DeleteQueueAsync(Topology.PurchasesWriterQueue);
        await system.StartWriterAsync();
        await system.WaitUntilHealthyAsync();
    }

    private static async Task<long> StoredAsync(Guid[] ids)
    {
        long stored = 0;
        foreach (var id in ids)
        {
            stored += await TestDatabase.CountPurchasesAsync(id);
        }

        return stored;
    }
}
