namespace Supermarket.SalesCounting;

/// <summary>What <see cref="StoreDaySales.ForEach{TVisitor}"/> calls with each item's key and units.</summary>
internal interface IItemUnitsVisitor
{
    void Visit(int key, long units);
}
