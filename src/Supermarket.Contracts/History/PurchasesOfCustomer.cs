namespace Supermarket.Contracts.History;

public sealed record PurchasesOfCustomer(int CustomerId, DateOnly? From, DateOnly? To, HistoryPosition? After, int PageSize);
