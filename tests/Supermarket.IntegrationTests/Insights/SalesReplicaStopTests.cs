extern alias Aggregator;

using Aggregator::Supermarket.SalesAggregator.Counting;
using Aggregator::Supermarket.SalesAggregator.Questions;
using Microsoft.Extensions.DependencyInjection;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Insights;

/// <summary>
/// A replica stopped just as its matrix becomes whole, while its questions' endpoint is being connected (an operator's
/// restart, a deployment's rollout), stops. Found: the bus's stop waited for good on the endpoint that was still
/// starting, and the aggregator never exited (ExactSalesTests hung in the full suite).
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class SalesReplicaStopTests
{
    [Fact]
    public async Task A_replica_stopped_as_it_becomes_ready_stops()
    {
        var settings = TestSettings.For();
        settings["Aggregator:CheckpointDirectory"] = Path.Combine(TestSettings.CheckpointDirectory, "stopped-as-ready");
        // Stopped at once, then later and later into the endpoint's start (its channel, queue and consumer), twice over.
        for (var start = 0; start < 50; start++)
        {
            var replica = await SupermarketSystem.StartWorkerAsync(Worker.Aggregator, settings);
            await replica.Services.GetRequiredService<MatrixReadiness>().Ready.WaitAsync(TimeSpan.FromSeconds(60));
            await Task.Delay(TimeSpan.FromMilliseconds(2 * (start % 25)));
            var stop = replica.StopAsync();
            // A stop takes a checkpoint's save at most (well under a second here): thirty seconds is a hang.
            var stopped = await Task.WhenAny(stop, Task.Delay(TimeSpan.FromSeconds(30))) == stop;
            Assert.True(stopped, $"start {start}: the replica did not stop within 30 s of its matrix becoming whole");
            await replica.DisposeAsync();
        }
    }
}
