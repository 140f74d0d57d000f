using Microsoft.Extensions.Options;
using Supermarket.Contracts.Sales;
using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.SalesAggregator.Counting;

/// <summary>How fast the feed counts purchases and how far it has come, as the answers report it
/// (<see cref="CountingStatus"/>): recorded by the feed for each entry it counts, read by the questions' consumer.</summary>
public sealed class CountingPace(IOptions<AggregatorOptions> options, TimeProvider clock)
{
    /// <summary>This process among its shard's replicas: the same on every answer it gives, another on another's.</summary>
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
