namespace Supermarket.Contracts.Sales;

/// <summary>An answer from the sales matrix, with how far through the sales ledger the matrix had counted when it
/// answered: every entry up to <see cref="CountedThrough"/> (a <c>sales_ledger.seq</c>) is in the answer. A client
/// that knows the seq its purchases were stored under can tell when they are counted.</summary>
public interface ISalesAnswer
{
    /// <summary>The HTTP header the API answers it in, beside the course's JSON.</summary>
    const string Header = "Sales-Counted-Through";

    long CountedThrough { get; }
}
