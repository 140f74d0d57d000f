using MassTransit;
using System.Diagnostics.Metrics;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Tests.Purchases;

/// <summary>What a publish's outcome is, as the batcher and the metrics see it.</summary>
public sealed class ConfirmedPublisherTests
{
    [Fact]
    public async Task A_confirmed_publish_is_true_and_reaches_the_bus()
    {
        await using var harness = IngestHarness.Create();
        await harness.Bus.Start();
        var purchase = IngestHarness.Purchase();

        Assert.True(await harness.Publisher.PublishAsync(new PurchaseBatchRecorded([purchase]), TimeSpan.FromMinutes(1), CancellationToken.None));
        Assert.Equal([[purchase.PurchaseId]], await harness.PublishedAsync());
    }

    [Fact]
    public async Task A_publish_that_fails_is_false_not_thrown_and_counted_unconfirmed()
    {
        await using var harness = IngestHarness.Create(publish => publish.UseExecute(_ => throw new InvalidOperationException("The connection is gone")));
        await harness.Bus.Start();
        using var outcomes = new PublishOutcomes(harness.Meters);

        Assert.False(await harness.Publisher.PublishAsync(new PurchaseBatchRecorded([IngestHarness.Purchase()]), TimeSpan.FromMinutes(1), CancellationToken.None));
        Assert.Equal(["unconfirmed"], outcomes.Seen);
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
