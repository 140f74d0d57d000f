namespace Supermarket.LoadTest.Verification;

/// <summary>The matrix's answers at the day's sampled stores and for their best sellers, asked before the day: what a
/// verification bounded by the day compares the answers after it with (<see cref="RankingAfterTheDay"/>).</summary>
/// <param name="PurchasesHeld">About how many purchases the database held (InnoDB's estimate).</param>
/// <param name="CountedWholeLedger">Whether the matrix had counted every ledger entry when it was asked, so that its
/// answers were MySQL's as of then.</param>
public sealed record AnswersBeforeTheDay(long PurchasesHeld, bool CountedWholeLedger,
    IReadOnlyDictionary<int, IReadOnlyList<(int Id, long Units)>> TopItemsAtStore,
    IReadOnlyDictionary<int, IReadOnlyList<(int Id, long Units)>> TopStoresOfItem);
