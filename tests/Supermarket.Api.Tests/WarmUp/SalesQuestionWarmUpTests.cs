using System.Net;
using MassTransit;
using Microsoft.AspNetCore.Hosting;
using Supermarket.Api.Insights;
using Supermarket.Api.Tests.Purchases;
using Supermarket.Contracts.Sales;
using Supermarket.Messaging;

namespace Supermarket.Api.Tests.WarmUp;

/// <summary>The API on Kestrel with one sales shard answering: before /health/ready passes it has asked itself, through
/// its own port and the bus, as many sales questions as its warm-up counts answered.</summary>
public sealed class SalesQuestionWarmUpTests
{
    [Fact]
    public async Task The_API_is_ready_only_after_its_own_sales_questions_were_answered_by_the_shard()
    {
        var asked = 0;
        await using var ingest = new IngestApi(claimAnswer: null, workers: bus => bus
            .AddHandler<SalesQuestions>(context =>
            {
                Interlocked.Add(ref asked, context.Message.TopItems.Length);
                return context.RespondAsync(new SalesAnswers(
                    [.. context.Message.TopItems.Select(question => new TopItemsAtStore(question.StoreId, [], 0))], []));
            })
            .Endpoint(endpoint => endpoint.Name = Topology.SalesQuestionsExchange(1, 1)));
        await using var api = ingest.WithWebHostBuilder(host => host
            .UseSetting("Urls", "http://127.0.0.1:0")
            .UseSetting("Management:Url", ""));
        api.UseKestrel();
        api.StartServer();
        using var client = api.CreateClient();

        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while ((await client.GetAsync("/health/ready")).StatusCode != HttpStatusCode.OK && DateTime.UtcNow < deadline)
        {
            await Task.Delay(50);
        }

        Assert.True(DateTime.UtcNow < deadline, "the API was not ready within 60 s");
        Assert.True(Volatile.Read(ref asked) >= SalesQuestionWarmUp.AnsweredRounds, $"the API said ready after asking the shard {asked} questions");
    }
}
