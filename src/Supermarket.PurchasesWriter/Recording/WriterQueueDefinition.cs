using MassTransit;
using Supermarket.Messaging;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>
/// Both purchase consumers share the writer's queue (<see cref="Topology.PurchasesWriterQueue"/>, shaped there):
/// each gathers its messages into transactions of its own size, at most Writer:BatchConcurrency at once, and retries
/// a failed transaction with back-off until the database is back. MassTransit acknowledges the messages only after
/// the commit.
/// </summary>
public abstract class WriterQueueDefinition<TConsumer> : ConsumerDefinition<TConsumer>
    where TConsumer : class, IConsumer
{
    private readonly WriterOptions _writer;
    private readonly int _messagesPerTransaction;

    protected WriterQueueDefinition(WriterOptions writer, int messagesPerTransaction)
    {
        (_writer, _messagesPerTransaction) = (writer, messagesPerTransaction);
        EndpointName = Topology.PurchasesWriterQueue;
    }

    protected override void ConfigureConsumer(
        IReceiveEndpointConfigurator endpoint, IConsumerConfigurator<TConsumer> consumer, IRegistrationContext context)
    {
        endpoint.PrefetchCount = _writer.PrefetchCount;
        // What reaches the retry is the database away (PurchaseWriter sets aside what MySQL refuses as it is): retried
        // until it is back, however long, so no acknowledged purchase leaves the writer's path for a person to move
        // back. Meanwhile the batches in flight hold every concurrent slot, so the writer takes no more than its
        // prefetch and the broker keeps the rest.
        consumer.UseMessageRetry(retry =>
            retry.Exponential(int.MaxValue, TimeSpan.FromMilliseconds(100), _writer.RetryMaxInterval, TimeSpan.FromMilliseconds(200)));
        consumer.Options<BatchOptions>(batch => batch
            .SetMessageLimit(_messagesPerTransaction)
            .SetTimeLimit(_writer.BatchTimeLimit)
            .SetConcurrencyLimit(_writer.BatchConcurrency));
    }
}
