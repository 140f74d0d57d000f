using System.Text.Json.Serialization;

namespace Supermarket.Api.Live;

// What the live page's stream sends (LiveEndpoints): a ranking as of a moment, and the chain at a glance.

/// <summary>A question's latest ranking. <see cref="State"/> is "current" when <see cref="Bars"/> were answered at
/// <see cref="AsOf"/> by the last asking; otherwise the bars are the last current ones (or none) and
/// <see cref="Message"/> says why no newer answer came: "away" (503: the aggregators, a shard of them or the broker
/// cannot be asked), "late" (504: no answer within Insights:QueryTimeout), "refused" (a range the aggregators do not
/// keep or have not dated), "starting" (not asked yet).</summary>
public sealed record LiveRanking(
    string Question, int Id, string? From, string? To, string State, string? Message,
    LiveBar[] Bars, DateTimeOffset? AsOf, long CountedThrough);

/// <summary>A store's or an item's units in a ranking.</summary>
public sealed record LiveBar(int Id, long Units);

/// <summary>The chain at a glance, at <see cref="At"/>: purchases the broker confirmed a second at this API and when it
/// last did, and each shard's counting as it last answered.</summary>
public sealed record LiveChain(
    DateTimeOffset At, double ConfirmedPerSecond, DateTimeOffset? LastConfirmed, int ShardCount, LiveShard[] Shards,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] double? CountingLagSeconds);

/// <summary>One shard's counting: how many of its replicas answered within Live:ReplicaSeenWithin, when the ledger entry
/// it counted last was stored (null: nothing counted since its start), the purchases it counted a second, and when it
/// last answered.</summary>
public sealed record LiveShard(int Shard, int ReplicasAnswering, DateTime? CountedStoredAt, double PurchasesPerSecond, DateTimeOffset LastAnswered);
