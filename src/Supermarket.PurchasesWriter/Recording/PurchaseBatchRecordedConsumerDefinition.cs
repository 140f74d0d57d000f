using MassTransit;
using Microsoft.Extensions.Options;
using Supermarket.Messaging;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>
/// The writer's queue (<see cref="Topology.PurchasesWriterQueue"/>) and how it is consumed, in the one place that
/// declares it: bounded by Writer:BacklogLimitMegabytes, beyond which RabbitMQ refuses the publish (nack) and the API
/// answers 503 at once; messages gathered into transactions of Writer:GroupsPerTransaction, at most
/// Writer:BatchConcurrency at once; a failed transaction retried with back-off until the database is back.
/// </summary>
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

        // What reaches the retry is the database away (PurchaseWriter sets aside what MySQL refuses as it is): retried
        // until it is back, however long, so no acknowledged purchase leaves the writer's path for a person to move
        // back. Meanwhile the batches in flight hold every concurrent slot, so the writer takes no more than its
        // prefetch and the broker keeps the rest.
        consumer.UseMessageRetry(retry =>
            retry.Exponential(int.MaxValue, TimeSpan.FromMilliseconds(100), _writer.RetryMaxInterval, TimeSpan.FromMilliseconds(200)));
        consumer.Options<BatchOptions>(batch => batch
            .SetMessageLimit(_writer.GroupsPerTransaction)
            .SetTimeLimit(_writer.BatchTimeLimit)
            .SetConcurrencyLimit(_writer.BatchConcurrency));
    }
}
