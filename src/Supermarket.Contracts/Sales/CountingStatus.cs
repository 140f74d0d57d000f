namespace Supermarket.Contracts.Sales;

public sealed record CountingStatus(int Shard, string Replica, DateTime? CountedStoredAt, double PurchasesPerSecond);
