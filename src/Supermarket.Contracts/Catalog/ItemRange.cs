namespace Supermarket.Contracts.Catalog;

public readonly record struct ItemRange(int First, int Last)
{
    public int Count => Last - First + 1;

    public bool Contains(int itemId) => (uint)(itemId - First) < (uint)Count;

    public override string ToString() => FormattableString.Invariant($"{First}-{Last}");
}
