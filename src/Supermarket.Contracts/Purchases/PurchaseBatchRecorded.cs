namespace Supermarket.Contracts.Purchases;

public sealed record PurchaseBatchRecorded(PurchaseRecorded[] Purchases);
