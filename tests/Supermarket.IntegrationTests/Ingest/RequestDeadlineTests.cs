using System.Diagnostics;
using System.Net;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Ingest;

/// <summary>A POST has one deadline, which the wait for a group and the wait for the broker's confirm share: a proxy
/// whose timeout is longer never gives up on a POST that the API would still answer (and might answer 201).</summary>
[Collection(nameof(SystemCollection))]
public sealed class RequestDeadlineTests(SupermarketSystem system, TestedAppHost appHost)
{
    private const int Store = 483;
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(3);

    [Fact]
    public async Task A_POST_that_waits_for_a_group_and_then_for_the_confirm_answers_within_its_one_deadline()
    {
        var settings = TestSettings.For();
        settings["Ingest:RequestDeadline"] = Deadline.ToString();
        // One group at a time, so the second POST waits for the first group's confirm before a group takes it.
        settings["Ingest:MaxBatchesInFlight"] = "1";
        await using var api = new SupermarketSystem.ApiFactory(settings);
        using var client = api.CreateClient();
        await SupermarketSystem.WaitUntilReadyAsync(client);
        Assert.Equal(HttpStatusCode.Created, (await PostAsync(client, 1)).Status);

        // A memory alarm: the broker stops reading from publishers, so no confirm comes while the connection stays up.
        await appHost.Faults.BlockPublishersAsync(CancellationToken.None);
        try
        {
            var first = PostAsync(client, 2);
            await Task.Delay(Deadline / 3);
            var second = await PostAsync(client, 3);
            var answers = new[] { await first, second };

            // The first was published and waits for its confirm: its outcome is not known (504). The second either
            // never left (503) or went once the first's publish gave up, and waits in turn (504).
            Assert.Equal(HttpStatusCode.GatewayTimeout, answers[0].Status);
            Assert.True(answers[1].Status is HttpStatusCode.ServiceUnavailable or HttpStatusCode.GatewayTimeout, $"the second POST got {answers[1].Status}");
            Assert.All(answers, answer => Assert.True(answer.Took < Deadline + TimeSpan.FromSeconds(1),
                $"a POST took {answer.Took}, past its deadline of {Deadline}: the waits for a group and for the confirm were added up"));
        }
        finally
        {
            await appHost.Faults.UnblockPublishersAsync(CancellationToken.None);
        }

        await system.WaitUntilHealthyAsync();
    }

    private static async Task<(HttpStatusCode Status, TimeSpan Took)> PostAsync(HttpClient api, int customer)
    {
        var started = Stopwatch.GetTimestamp();
        var response = await Purchases.PostAsync(api, $"/purchase/{Store}/customer/{(Store * 1000) + customer}/date/20210306", Purchases.Body((48_300, 1)));
        return (response.StatusCode, Stopwatch.GetElapsedTime(started));
    }
}
