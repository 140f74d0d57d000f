using System.Diagnostics;
using System.Net;
using Supermarket.IntegrationTests.Infrastructure;
using Supermarket.Messaging;

namespace Supermarket.IntegrationTests.Ingest;

[Collection(nameof(SystemCollection))]
public sealed class BrokerOutageTests(SupermarketSystem system, TestedAppHost appHost)
{
    private const string Path = "/purchase/2/customer/2000/date/20210101";
    private static readonly TimeSpan RequestDeadline = new Supermarket.Api.Purchases.IngestOptions().RequestDeadline;

    [Fact]
    public async Task A_purchase_no_queue_would_receive_is_not_accepted()
    {
        // Only the writer declares its queue and binds it to the fanout; the API's broker user may not. With the queue
        // gone and no writer running (as before the writer's first start), the fanout has nothing bound: the
        // mandatory flag makes RabbitMQ return such a purchase, and the API answers 503, not 201.
        await system.StopWriterAsync();
        try
        {
            Assert.Equal(HttpStatusCode.Created, (await Purchases.PostAsync(system.Api, Path, Purchases.Body((1, 1)))).StatusCode);
            await BrokerAdministrator.DeleteQueueAsync(Topology.PurchasesWriterQueue);

            var response = await Purchases.PostAsync(system.Api, Path, Purchases.Body((1, 1)));

            Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
        }
        finally
        {
            await system.StartWriterAsync();
            await system.WaitUntilHealthyAsync();
        }
    }

    [Fact]
    public async Task With_the_broker_down_a_POST_gets_503_promptly_and_201_again_once_it_is_back()
    {
        var body = Purchases.Body((1, 1));
        Assert.Equal(HttpStatusCode.Created, (await Purchases.PostAsync(system.Api, Path, body)).StatusCode);

        await appHost.Faults.StopAsync("rabbitmq", CancellationToken.None);
        try
        {
            var watch = Stopwatch.StartNew();
            var response = await Purchases.PostAsync(system.Api, Path, body);
            watch.Stop();

            Assert.Equal(HttpStatusCode.ServiceUnavailable, response.StatusCode);
            Assert.NotNull(response.Headers.RetryAfter);
            // Until the API notices, a request may wait out its deadline, but never hang past it by much.
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(15), $"the 503 took {watch.Elapsed}");

            // Once the API knows the broker is gone (its readiness says so), it refuses at once instead of letting
            // each request wait out its deadline; all but the one probe a second that looks for the broker.
            var known = await Eventually.UntilAsync(async () => (await system.Api.GetAsync("/health/ready")).StatusCode,
                status => status == HttpStatusCode.ServiceUnavailable);
            Assert.Equal(HttpStatusCode.ServiceUnavailable, known);
            // Keyed POSTs too: their key is not claimed from the writer first, which would wait for an answer that
            // cannot come.
            var refusals = await Task.WhenAll(Enumerable.Range(0, 20).Select(async i =>
            {
                using var request = new HttpRequestMessage(HttpMethod.Post, Path) { Content = new StringContent(body, System.Text.Encoding.UTF8, "application/json") };
                if (i % 2 == 1)
                {
                    request.Headers.Add("Idempotency-Key", $"gone-{i}");
                }

                var started = Stopwatch.GetTimestamp();
                var refused = await system.Api.SendAsync(request);
                return (refused.StatusCode, Took: Stopwatch.GetElapsedTime(started));
            }));
            Assert.All(refusals, refusal => Assert.Equal(HttpStatusCode.ServiceUnavailable, refusal.StatusCode));
            Assert.True(refusals.Count(refusal => refusal.Took < RequestDeadline / 2) >= 19,
                $"the 503s took {string.Join(", ", refusals.Select(r => r.Took))}: they waited out their deadline although the broker was known to be gone");
            Assert.Matches(@"(?m)^supermarket_purchases_refused_total\{[^}]*\} (19|[2-9][0-9]|[1-9][0-9]{2,})(\s|$)", await system.Api.GetStringAsync("/metrics"));
        }
        finally
        {
            await appHost.Faults.StartUntilHealthyAsync("rabbitmq", CancellationToken.None);
        }

        var recovered = await Eventually.UntilAsync(
            async () => (await Purchases.PostAsync(system.Api, Path, body)).StatusCode,
            status => status == HttpStatusCode.Created,
            TimeSpan.FromSeconds(90));
        Assert.Equal(HttpStatusCode.Created, recovered);
        await system.WaitUntilHealthyAsync();
    }
}
