namespace Supermarket.Contracts.Sales;

/// <summary>What one aggregator's counting is doing as it answers (the analysts' live page shows it): its shard, which
/// replica it is, when the last ledger entry it counted was stored (null when it has counted none since it started,
/// from its checkpoint or not), and how many purchases it counted a second over the last few seconds.</summary>
public sealed record CountingStatus(int Shard, string Replica, DateTime? CountedStoredAt, double PurchasesPerSecond);
