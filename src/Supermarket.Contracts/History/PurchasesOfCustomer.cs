namespace Supermarket.Contracts.History;

/// <summary>Asks the Purchases writer for one customer's purchases, newest first, a page at a time.</summary>
/// <param name="From">The first purchase date included; null for no lower bound.</param>
/// <param name="To">The last purchase date included; null for no upper bound.</param>
/// <param name="After">Where the previous page ended; null for the first page.</param>
public sealed record PurchasesOfCustomer(int CustomerId, DateOnly? From, DateOnly? To, HistoryPosition? After, int PageSize);
