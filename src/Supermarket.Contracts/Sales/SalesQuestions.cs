namespace Supermarket.Contracts.Sales;

/// <summary>The sales questions asked of one shard at about the same moment, in one message: questions asked together
/// (analysts' dashboards, many at once) share one message each way and one read of the ledger, where each alone would
/// cost a message and a wait for the broker of its own (#55). Answered by one <see cref="SalesAnswers"/>, in the same
/// order.</summary>
public sealed record SalesQuestions(TopItemsForStore[] TopItems, TopStoresForItem[] TopStores);

/// <summary>The answers to a <see cref="SalesQuestions"/>, in the order of its questions, all ranked from the matrix as
/// it stood at one moment.</summary>
public sealed record SalesAnswers(TopItemsAtStore[] TopItems, TopStoresOfItem[] TopStores);
