using MassTransit;

namespace Supermarket.Messaging;

/// <summary>
/// Every exchange and queue of the system, and the shape each queue is declared with. A queue has one owner, the
/// worker that consumes it, which alone declares it: the API publishes purchases to their fanout and questions to
/// the exchange of their message type, and its broker user may not touch a worker's queue (docs/security.md).
/// A purchase published before the writer ever declared its queue reaches no queue; it is returned (the publish is
/// mandatory) and answered 503, never 201.
/// </summary>
public static class Topology
{
    /// <summary>The first part of every name the API's broker user may read: its bus endpoint's.</summary>
    public const string ApiNames = "supermarket.api";

    /// <summary>The first part of the Purchases writer's queues and bus endpoint.</summary>
    public const string WriterNames = "supermarket.purchases";

    /// <summary>The first part of the Sales aggregator's queues and bus endpoint.</summary>
    public const string AggregatorNames = "supermarket.store";

    /// <summary>Where answers to one process of <paramref name="service"/> (<see cref="ApiNames"/>...) come back:
    /// MassTransit's bus endpoint, an exchange the answers are published to and a queue of the same name, exclusive to
    /// the process's connection. Named under the service's names, not MassTransit's <c>machine_process_bus_id</c>,
    /// so that the workers' broker users may answer the API without binding a queue of theirs to its answers
    /// (scripts/broker-rights, docs/security.md).</summary>
    public static string BusEndpoint(string service) => $"{service}.bus-{Guid.NewGuid():N}";

    /// <summary>The fanout the API's groups of concurrent purchases go to.</summary>
    public const string PurchaseBatchesExchange = "supermarket.purchase-batch-recorded";

    /// <summary>The Purchases writer's queue, bound to the purchases' fanout.</summary>
    public const string PurchasesWriterQueue = "supermarket.purchases.writer";

    /// <summary>Purchases MySQL refuses as they are, each alone in its message, set aside by the writer so that their
    /// batch-mates are stored; the writer's <see cref="ReplayUnstorableCommand"/> puts them back on the writer's queue.</summary>
    public const string UnstorablePurchasesQueue = "supermarket.purchases.writer_unstorable";

    /// <summary>The writer's resource command that replays <see cref="UnstorablePurchasesQueue"/> (the AppHost's
    /// UnstorablePurchasesReplay), as the Aspire CLI names it, and as the dashboard shows it; the writer's log line for
    /// a purchase set aside quotes both.</summary>
    public const string ReplayUnstorableCommand = "replay-unstorable";

    /// <inheritdoc cref="ReplayUnstorableCommand"/>
    public const string ReplayUnstorableCommandTitle = "Replay set-aside purchases";

    /// <summary>The writer answers Idempotency-Key claims here, apart from the purchases, so a claim never waits
    /// behind a backlog.</summary>
    public const string IdempotencyKeysQueue = "supermarket.purchases.idempotency-keys";

    /// <summary>The writer answers purchase history questions here, also apart from the purchases.</summary>
    public const string PurchaseHistoryQueue = "supermarket.purchases.history";

    /// <summary>The queue the aggregators of sales shard <paramref name="shard"/> of <paramref name="shards"/>
    /// (SalesShardOptions) answer top-N questions from, competing when a shard has replicas. Named for the count too:
    /// shard 1 of 2 counts other items than shard 1 of 1, and while the count changes both may run.</summary>
    public static string SalesQuestionsQueue(int shard, int shards) => $"supermarket.store.sales-queries.shard-{shard}-of-{shards}";

    /// <summary>Where the API sends that shard's questions: an exchange bound to that shard's queue alone, so a
    /// question reaches exactly the shard it asks, and the API's broker user, which may declare this exchange, never
    /// names a worker's queue.</summary>
    public static string SalesQuestionsExchange(int shard, int shards) => $"supermarket.sales-questions.shard-{shard}-of-{shards}";

    /// <summary>The shape of every worker queue: quorum queues where a cluster replicates them. The writer's queue
    /// is also bounded, by its consumer's definition, the one place that declares it.</summary>
    public static void ShapeWorkerQueue(IRabbitMqQueueConfigurator queue, BrokerOptions broker)
    {
        if (broker.QuorumQueues)
        {
            queue.SetQuorumQueue();
        }
    }
}
