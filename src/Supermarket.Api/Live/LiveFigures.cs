using System.Text.Json.Serialization;

namespace Supermarket.Api.Live;

// What the live page's stream sends (LiveEndpoints): a ranking as of a moment, and the chain at a glance.

/// <summary><see cref="State"/> "current": <see cref="Bars"/> answered at <see cref="AsOf"/>; otherwise the last
/// current bars, <see cref="Message"/> saying why: "away" (503), "late" (504), "refused", "starting".</summary>
public sealed record LiveRanking(
    string Question, int Id, string? From, string? To, string State, string? Message,
    LiveBar[] Bars, DateTimeOffset? AsOf, long CountedThrough);

public sealed record LiveBar(int Id, long Units);

public sealed record LiveChain(
    DateTimeOffset At, double ConfirmedPerSecond, DateTimeOffset? LastConfirmed, int ShardCount, LiveShard[] Shards,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] double? CountingLagSeconds);

/// <summary><see cref="CountedStoredAt"/> is null while the shard has counted nothing since its start.</summary>
public sealed record LiveShard(int Shard, int ReplicasAnswering, DateTime? CountedStoredAt, double PurchasesPerSecond, DateTimeOffset LastAnswered);
