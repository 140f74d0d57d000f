namespace Supermarket.Contracts.Sales;

/// <summary>A question to the Sales aggregator. <see cref="CountedAtLeast"/> is the furthest ledger entry the asker has
/// been told an answer counted through (<see cref="ISalesAnswer.CountedThrough"/>): a replica of the shard that has
/// counted less waits to catch up rather than answer with less than was already said.</summary>
public interface ISalesQuestion
{
    long CountedAtLeast { get; }
}
