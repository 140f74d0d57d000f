namespace Supermarket.Contracts.Sales;

/// <summary>Questions asked of a shard together share one message each way and one read of the ledger.</summary>
public sealed record SalesQuestions(TopItemsForStore[] TopItems, TopStoresForItem[] TopStores);

public sealed record SalesAnswers(TopItemsAtStore[] TopItems, TopStoresOfItem[] TopStores);
