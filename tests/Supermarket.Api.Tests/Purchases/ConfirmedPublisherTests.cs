using MassTransit;
using System.Diagnostics.Metrics;
using Supermarket.Api.Purchases;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Tests.Purchases;

/// <summary>What a publish's outcome is, as the batcher and the metrics see it.</summary>
public sealed class ConfirmedPublisherTests
{
    [Fact]
    public async Task A_confirmed_publish_is_confirmed_and_reaches_the_bus()
    {
        await using var harness = IngestHarness.Create();
        await harness.StartAsync();
        var purchase = IngestHarness.Purchase();

        using var attempt = new PublishAttempt(TimeSpan.FromMinutes(1));
        Assert.Equal(PublishOutcome.Confirmed, await harness.Publisher.PublishAsync(new PurchaseBatchRecorded([purchase]), attempt));
        Assert.Equal([[purchase.PurchaseId]], await harness.PublishedAsync());
    }

    [Fact]
    public async Task A_publish_that_fails_before_it_reached_a_channel_is_not_published()
    {
        await using var harness = IngestHarness.Create(publish => publish.UseExecute(_ => throw new InvalidOperationException("No connection")));
        await harness.StartAsync();
        using var outcomes = new PublishOutcomes(harness.Meters);
        using var attempt = new PublishAttempt(TimeSpan.FromMinutes(1));

        Assert.Equal(PublishOutcome.NotPublished, await harness.Publisher.PublishAsync(new PurchaseBatchRecorded([IngestHarness.Purchase()]), attempt));
        Assert.Equal(["unconfirmed"], outcomes.Seen);
    }

    [Fact]
    public async Task A_publish_given_up_before_it_reached_a_channel_never_leaves()
    {
        var channel = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        await using var harness = IngestHarness.Create(publish => publish.UseExecuteAsync(_ => channel.Task));
        await harness.StartAsync();
        using var attempt = new PublishAttempt(TimeSpan.FromMinutes(1));

        // Waiting for a channel when its requests are answered: given up, so it must not be sent once a channel comes.
        var publishing = harness.Publisher.PublishAsync(new PurchaseBatchRecorded([IngestHarness.Purchase()]), attempt);
        Assert.True(attempt.TryGiveUp());
        channel.SetResult();

        Assert.Equal(PublishOutcome.NotPublished, await publishing);
        await Task.Delay(TimeSpan.FromMilliseconds(200));
        Assert.DoesNotContain(harness.Bus.Published.Select<PurchaseBatchRecorded>(), message => message.Exception is null);
    }

    /// <summary>The outcome tag of each publish the harness's metrics record (tests run in parallel, each with its own).</summary>
    private sealed class PublishOutcomes : IDisposable
    {
        private readonly MeterListener _listener = new();
        private readonly List<string> _seen = [];

        public PublishOutcomes(IMeterFactory meters)
        {
            _listener.InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Name == "supermarket.publish.duration" && ReferenceEquals(instrument.Meter.Scope, meters))
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            };
            _listener.SetMeasurementEventCallback<double>((_, _, tags, _) =>
            {
                foreach (var tag in tags)
                {
                    if (tag.Key == "outcome")
                    {
                        lock (_seen)
                        {
                            _seen.Add((string)tag.Value!);
                        }
                    }
                }
            });
            _listener.Start();
        }

        public IReadOnlyList<string> Seen
        {
            get
            {
                lock (_seen)
                {
                    return [.. _seen];
                }
            }
        }

        public void Dispose() => _listener.Dispose();
    }
}
