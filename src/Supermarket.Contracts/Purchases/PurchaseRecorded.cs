namespace Supermarket.Contracts.Purchases;

public sealed record PurchaseRecorded(
    Guid PurchaseId,
    int StoreId,
    int CustomerId,
    DateOnly Date,
    PurchaseLine[] Items,
    DateTimeOffset ReceivedAt);

public readonly record struct PurchaseLine(int ItemId, int Quantity);
