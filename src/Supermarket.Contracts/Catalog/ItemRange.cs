namespace Supermarket.Contracts.Catalog;

/// <summary>Item ids <see cref="First"/> to <see cref="Last"/>, both counted: the items one sales shard owns.</summary>
public readonly record struct ItemRange(int First, int Last)
{
    public int Count => Last - First + 1;

    public bool Contains(int itemId) => (uint)(itemId - First) < (uint)Count;

    public override string ToString() => FormattableString.Invariant($"{First}-{Last}");
}
