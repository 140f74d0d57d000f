using MassTransit;

namespace Supermarket.Messaging;

/// <summary>Every name on the broker. A queue is declared only by the worker that consumes it, since the API's broker
/// user may not touch it (docs/security.md); a purchase sent before then is returned, and gets 503.</summary>
public static class Topology
{
    public const string ApiNames = "supermarket.api";

    public const string WriterNames = "supermarket.purchases";

    public const string AggregatorNames = "supermarket.store";

    public static string BusEndpoint(string service) => $"{service}.bus-{Guid.NewGuid():N}";

    public const string PurchaseBatchesExchange = "supermarket.purchase-batch-recorded";

    public const string PurchasesWriterQueue = "supermarket.purchases.writer";

    public const string UnstorablePurchasesQueue = "supermarket.purchases.writer_unstorable";

    public const string ReplayUnstorableCommand = "replay-unstorable";

    public const string ReplayUnstorableCommandTitle = "Replay set-aside purchases";

    public const string IdempotencyKeysQueue = "supermarket.purchases.idempotency-keys";

    public const string PurchaseHistoryQueue = "supermarket.purchases.history";

    /// <summary>Named for the count: shard 1 of 2 counts other items than 1 of 1, and both run as it changes.</summary>
    public static string SalesQuestionsQueue(int shard, int shards) => $"supermarket.store.sales-queries.shard-{shard}-of-{shards}";

    public static string SalesQuestionsExchange(int shard, int shards) => $"supermarket.sales-questions.shard-{shard}-of-{shards}";

    public static void ShapeWorkerQueue(IRabbitMqQueueConfigurator queue, BrokerOptions broker)
    {
        if (broker.QuorumQueues)
        {
            queue.SetQuorumQueue();
        }
    }
}
