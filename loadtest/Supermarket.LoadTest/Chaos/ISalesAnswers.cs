namespace Supermarket.LoadTest.Chaos;

/// <summary>The sales question a chaos day's watch keeps asking (<see cref="AnswerWatch"/>): the API over HTTP
/// (<see cref="ApiSalesAnswers"/>); the seam the chaos run's fast tests replace.</summary>
public interface ISalesAnswers
{
    /// <summary>The top items at <paramref name="store"/>; null when no answer came (not ready, timed out, away).</summary>
    Task<SalesAnswerSeen?> AskAsync(int store, CancellationToken cancellationToken);
}

/// <summary>One answer: how far through the ledger it counted (Sales-Counted-Through) and the units of the items it
/// ranks, added up.</summary>
public sealed record SalesAnswerSeen(int Store, long CountedThrough, long Units);
