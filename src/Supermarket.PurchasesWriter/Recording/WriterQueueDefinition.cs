using MassTransit;
using Supermarket.Messaging;
using Supermarket.PurchasesWriter.Storage;

namespace Supermarket.PurchasesWriter.Recording;

/// <summary>
/// Both purchase consumers share the writer's queue (<see cref="Topology.PurchasesWriterQueue"/>, shaped there):
/// each gathers its messages into transactions of its own size, at most Writer:BatchConcurrency at once, and retries
/// a failed transaction with back-off: without end while the database is away, Writer:RetryLimit times when MySQL
/// refuses the purchases themselves. MassTransit acknowledges the messages only after the commit.
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
        // The database away: retried until it is back, however long, so no acknowledged purchase leaves the writer's
        // path for a person to move back. Meanwhile the batches in flight hold every concurrent slot, so the writer
        // takes no more than its prefetch and the broker keeps the rest.
        consumer.UseMessageRetry(retry =>
        {
            retry.Ignore<Exception>(StorageFailure.IsUnstorable);
            retry.Exponential(int.MaxValue, TimeSpan.FromMilliseconds(100), _writer.RetryMaxInterval, TimeSpan.FromMilliseconds(200));
        });
        // Purchases MySQL refuses as they are: Writer:RetryLimit tries, then the error queue, their ids in the log.
        consumer.UseMessageRetry(retry =>
        {
            retry.Handle<Exception>(StorageFailure.IsUnstorable);
            retry.Exponential(_writer.RetryLimit, TimeSpan.FromMilliseconds(100), _writer.RetryMaxInterval, TimeSpan.FromMilliseconds(200));
        });
        consumer.Options<BatchOptions>(batch => batch
            .SetMessageLimit(_messagesPerTransaction)
            .SetTimeLimit(_writer.BatchTimeLimit)
            .SetConcurrencyLimit(_writer.BatchConcurrency));
    }
}
