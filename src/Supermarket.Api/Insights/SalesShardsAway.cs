namespace Supermarket.Api.Insights;

/// <summary>Some of the sales shards a question needs did not answer in time: its answer would be missing them, so
/// none is given (503 with Retry-After).</summary>
public sealed class SalesShardsAway(IReadOnlyList<string> shards)
    : Exception($"The sales shards of items {string.Join(", ", shards)} did not answer in time; an answer without them would be wrong.")
{
    public IReadOnlyList<string> Shards { get; } = shards;
}
