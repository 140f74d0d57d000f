namespace Supermarket.Contracts.Purchases;

/// <summary>
/// Purchases the Purchases writer has committed to MySQL, published after the commit. The Store aggregator counts
/// these rather than the ingest fanout, so everything it has counted is in MySQL: a restarted aggregator rebuilds
/// from MySQL and loses nothing. A writer that retries a batch publishes it again; the aggregator skips purchases
/// it has already counted.
/// </summary>
public sealed record PurchasesStored(PurchaseRecorded[] Purchases);
