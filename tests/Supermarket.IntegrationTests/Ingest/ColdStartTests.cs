using System.Net;
using System.Text.Json;
using MassTransit;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Ingest;

/// <summary>
/// An API that has answered nothing yet. Found while measuring the purchase history: given tens of GETs a second
/// that ask the workers, together with its first POSTs, such an API lost its broker connection for good. MassTransit
/// 8.4 starts the bus endpoint that receives the answers only with the first question, and every question that
/// arrives meanwhile blocks a thread-pool thread until it has started (MassTransitBus.ConnectRequestPipe); the
/// starved pool then could not run the RabbitMQ client's own continuations, so the start never finished.
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class ColdStartTests(SupermarketSystem system)
{
    [Fact]
    public async Task The_API_receives_answers_before_its_first_question()
    {
        await using var api = new SupermarketSystem.ApiFactory(TestSettings.For());
        using var client = api.CreateClient();
        await SupermarketSystem.WaitUntilReadyAsync(client);

        // Ready, and not asked anything yet: the queue its answers come back on is already consumed.
        var answers = api.Services.GetRequiredService<IBus>().Address.Segments[^1];
        var consumers = await Eventually.UntilAsync(() => ConsumersAsync(answers), count => count > 0, TimeSpan.FromSeconds(10));
        Assert.True(consumers > 0, $"the API's answer queue {answers} has no consumer before its first question");
    }

    [Fact]
    public async Task A_cold_API_given_questions_and_purchases_at_once_keeps_recording_purchases()
    {
        await system.WaitUntilHealthyAsync();
        await using var api = new SupermarketSystem.ApiFactory(TestSettings.For());
        api.UseKestrel(0);
        api.StartServer();
        using var client = api.CreateClient();
        client.Timeout = TimeSpan.FromSeconds(60);
        // Ready, as ./run.sh and compose wait for, and not asked anything yet.
        await SupermarketSystem.WaitUntilReadyAsync(client);

        // Fifty questions a second for two seconds, and a till posting all the while.
        var questions = Enumerable.Range(0, 100).Select(async i =>
        {
            await Task.Delay(i * 20);
            using var answer = await client.GetAsync(i % 2 == 0 ? $"/purchases/store/{(i % 50) + 1}?date=20210101" : $"/items/store/{(i % 50) + 1}");
            return answer.StatusCode;
        }).ToList();
        var posts = Enumerable.Range(0, 20).Select(async i =>
        {
            await Task.Delay(i * 100);
            // Store 476 is this test's own: another test's answers for its store must not see these.
            using var answer = await Purchases.PostAsync(client, $"/purchase/476/customer/{476000 + i}/date/20210101", Purchases.Body((99997, 1)));
            return answer.StatusCode;
        }).ToList();
        await Task.WhenAll(questions.Concat(posts));

        Assert.All(posts, post => Assert.Equal(HttpStatusCode.Created, post.Result));
        Assert.All(questions, question => Assert.Equal(HttpStatusCode.OK, question.Result));
    }

    [Fact]
    public async Task An_API_that_never_reached_the_broker_answers_questions_503_at_once()
    {
        var settings = TestSettings.For();
        settings["Broker:Port"] = "1";
        await using var api = new SupermarketSystem.ApiFactory(settings);
        using var client = api.CreateClient();
        client.Timeout = TimeSpan.FromSeconds(60);

        var watch = System.Diagnostics.Stopwatch.StartNew();
        var answers = await Task.WhenAll(Enumerable.Range(0, 40).Select(async i =>
        {
            using var answer = await client.GetAsync(i % 2 == 0 ? "/purchases/customer/1" : "/items/top10/1");
            return answer.StatusCode;
        }));
        watch.Stop();

        Assert.All(answers, status => Assert.Equal(HttpStatusCode.ServiceUnavailable, status));
        Assert.True(watch.Elapsed < TimeSpan.FromSeconds(10), $"40 questions took {watch.Elapsed}");
    }

    private static async Task<int> ConsumersAsync(string queue)
    {
        using var http = BrokerAdministrator.Client();
        using var response = await http.GetAsync($"queues/{Uri.EscapeDataString(TestSettings.VirtualHost)}/{Uri.EscapeDataString(queue)}");
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return 0;
        }

        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return json.RootElement.TryGetProperty("consumers", out var consumers) ? consumers.GetInt32() : 0;
    }
}
