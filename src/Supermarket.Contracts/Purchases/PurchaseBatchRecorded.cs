namespace Supermarket.Contracts.Purchases;

/// <summary>
/// Purchases the API accepted together and published as one broker message (group commit): one publish and one
/// confirm for the lot, which is what lets ingest outrun the broker's per-message ceiling. Each purchase keeps its
/// own id, so downstream idempotency is unchanged.
/// </summary>
public sealed record PurchaseBatchRecorded(PurchaseRecorded[] Purchases);
