namespace Supermarket.Contracts.Purchases;

/// <summary>
/// A purchase the API has accepted, published with the others accepted with it in one <see cref="PurchaseBatchRecorded"/>.
/// </summary>
/// <param name="PurchaseId">Assigned at ingest; a UUIDv7, so its big-endian bytes sort by time.
/// It is the idempotency key everywhere downstream.</param>
public sealed record PurchaseRecorded(
    Guid PurchaseId,
    int StoreId,
    int CustomerId,
    DateOnly Date,
    PurchaseLine[] Items,
    DateTimeOffset ReceivedAt);

/// <summary>One line of a purchase: so many units of one item.</summary>
public readonly record struct PurchaseLine(int ItemId, int Quantity);
