namespace Supermarket.Hosting.Messaging;

/// <summary>The queues the workers own. The API addresses its questions to <see cref="SalesQueries"/> and
/// <see cref="IdempotencyKeys"/>.</summary>
public static class QueueNames
{
    public const string PurchaseWriter = "supermarket.purchases.writer";
    public const string IdempotencyKeys = "supermarket.purchases.idempotency-keys";
    public const string SalesQueries = "supermarket.store.sales-queries";
}
