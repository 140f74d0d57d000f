using Microsoft.Extensions.Options;
using Supermarket.Contracts.Sales;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.SalesAggregator.Counting;

public sealed class CountingPace(IOptions<AggregatorOptions> options, TimeProvider clock)
{
    private static readonly string Replica = $"{Environment.MachineName}/{Environment.ProcessId}";

    private readonly RecentRate _purchases = new(clock);
    private long _countedStoredAtTicks;

    public void Counted(int purchases, DateTime storedAt)
    {
        _purchases.Add(purchases);
        Volatile.Write(ref _countedStoredAtTicks, storedAt.Ticks);
    }

    public CountingStatus Status() =>
        new(options.Value.Shard, Replica, Volatile.Read(ref _countedStoredAtTicks) is > 0 and var ticks ? new DateTime(ticks, DateTimeKind.Utc) : null,
            _purchases.PerSecond());
}
