using Supermarket.Contracts.Sales;

namespace Supermarket.Api.Live;

/// <summary>One of the two sales questions, as a page watches it: viewers of the same question share its asking.</summary>
public readonly record struct LiveQuestion(LiveQuestionKind Kind, int Id, DateOnly? From, DateOnly? To)
{
    public TopItemsForStore AsTopItems(int count) => new(Id, count, From, To);

    public TopStoresForItem AsTopStores(int count) => new(Id, count, From, To);
}

public enum LiveQuestionKind
{
    TopItemsAtStore,

    TopStoresForItem,
}
