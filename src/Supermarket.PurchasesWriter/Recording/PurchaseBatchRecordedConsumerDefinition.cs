using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Messaging;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>The one place that declares the writer's queue, bounded by Writer:BacklogLimitMegabytes.</summary>
public sealed class PurchaseBatchRecordedConsumerDefinition : ConsumerDefinition<PurchaseBatchRecordedConsumer>
{
    private readonly WriterOptions _writer;

    public PurchaseBatchRecordedConsumerDefinition(IOptions<WriterOptions> options)
    {
        _writer = options.Value;
        EndpointName = Topology.PurchasesWriterQueue;
    }

    protected override void ConfigureConsumer(IReceiveEndpointConfigurator endpoint,
        IConsumerConfigurator<PurchaseBatchRecordedConsumer> consumer, IRegistrationContext context)
    {
        endpoint.PrefetchCount = _writer.PrefetchCount;
        if (endpoint is IRabbitMqReceiveEndpointConfigurator queue)
        {
            queue.SetQueueArgument("x-max-length-bytes", _writer.BacklogLimitMegabytes * 1024L * 1024L);
            queue.SetQueueArgument("x-overflow", "reject-publish");
        }

        // Only the database away reaches the retry, which never gives up: no acknowledged purchase leaves the writer.
        // The batches in flight hold every slot meanwhile, so the broker keeps the rest.
        consumer.UseMessageRetry(retry =>
            retry.Exponential(int.MaxValue, TimeSpan.FromMilliseconds(100), _writer.RetryMaxInterval, TimeSpan.FromMilliseconds(200)));
        consumer.Options<BatchOptions>(batch => batch
            .SetMessageLimit(_writer.GroupsPerTransaction)
            .SetTimeLimit(_writer.BatchTimeLimit)
            .SetConcurrencyLimit(_writer.BatchConcurrency));
    }
}
