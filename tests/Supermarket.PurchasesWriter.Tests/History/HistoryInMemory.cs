using Supermarket.Contracts.History;
using Supermarket.Database.History;
using Supermarket.PurchasesWriter.History;

namespace Supermarket.PurchasesWriter.Tests.History;

/// <summary>The pages each question gets, as a test sets them; a question without one gets an empty page.</summary>
public sealed class HistoryInMemory : IPurchaseHistory
{
    private readonly Dictionary<object, PurchaseHistoryPage> _pages = [];

    public void Answer(object question, PurchaseHistoryPage page) => _pages[question] = page;

    public Task<PurchaseHistoryPage> AtStoreAsync(PurchasesAtStore question, CancellationToken cancellationToken) => PageFor(question);

    public Task<PurchaseHistoryPage> OfCustomerAsync(PurchasesOfCustomer question, CancellationToken cancellationToken) => PageFor(question);

    private Task<PurchaseHistoryPage> PageFor(object question) =>
        Task.FromResult(_pages.GetValueOrDefault(question) ?? new PurchaseHistoryPage([], Next: null));
}
