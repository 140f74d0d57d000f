using System.Globalization;

namespace Supermarket.LoadTest.Chaos;

/// <summary>The sales question a chaos day's watch keeps asking (<see cref="AnswerWatch"/>): the API over HTTP
/// (<see cref="ApiSalesAnswers"/>); the seam the chaos run's fast tests replace.</summary>
public interface ISalesAnswers
{
    /// <summary>The top items at <paramref name="store"/>: the answer, or what came instead (not ready, timed out, away).</summary>
    Task<SalesReply> AskAsync(int store, CancellationToken cancellationToken);
}

/// <summary>One answer: how far through the ledger it counted (Sales-Counted-Through) and the units of the items it
/// ranks, added up.</summary>
public sealed record SalesAnswerSeen(int Store, long CountedThrough, long Units);

/// <summary>What one question got: an answer, or none and the status that came instead. The status tells a shard that
/// did not answer in time (503, with shards) or an aggregator that did not (504) from a response that never came
/// (<see cref="NoResponse"/>), which a scenario that promises every answer must tell apart in its verdict.</summary>
public readonly record struct SalesReply(SalesAnswerSeen? Answer, int Status)
{
    /// <summary>No HTTP response at all: a timeout or a lost connection.</summary>
    public const int NoResponse = 0;

    public static SalesReply Answered(SalesAnswerSeen answer) => new(answer, 200);

    public static SalesReply Unanswered(int status) => new(null, status);

    /// <summary>A status as the table says it: the number, or "no response".</summary>
    public static string Describe(int status) => status == NoResponse ? "no response" : status.ToString(CultureInfo.InvariantCulture);
}
