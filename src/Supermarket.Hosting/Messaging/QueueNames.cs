namespace Supermarket.Hosting.Messaging;

/// <summary>The queues the workers own. The API addresses the sales queries to <see cref="SalesQueries"/>.</summary>
public static class QueueNames
{
    public const string PurchaseWriter = "supermarket.purchases.writer";
    public const string SalesCounter = "supermarket.store.stored-purchases";
    public const string SalesQueries = "supermarket.store.sales-queries";
}
