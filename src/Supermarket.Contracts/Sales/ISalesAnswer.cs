namespace Supermarket.Contracts.Sales;

/// <summary>Every ledger entry up to <see cref="CountedThrough"/> (a <c>sales_ledger.seq</c>) is in it.</summary>
public interface ISalesAnswer
{
    const string Header = "Sales-Counted-Through";

    long CountedThrough { get; }
}
