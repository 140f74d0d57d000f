using Supermarket.Contracts.History;
using Supermarket.Database.History;
using Supermarket.PurchasesWriter.History;

namespace Supermarket.PurchasesWriter.Tests.History;

/// <summary>The pages each question gets, as a test sets them; a question without one gets an empty page.</summary>
public sealed class HistoryInMemory : IPurchaseHistory
{
    private readonly Dictionary<object, PurchaseHistoryPage> _pages = [];

    public void Answer(object question, PurchaseHistoryPage page) => _pages[question] = page;

    public Task<PurchaseHistoryPage> AtStoreAsync(PurchasesAtStore question, CancellationToken cancellationToken) => PageFor(question, cancellationToken);

    public Task<PurchaseHistoryPage> OfCustomerAsync(PurchasesOfCustomer question, CancellationToken cancellationToken) => PageFor(question, cancellationToken);

    /// <summary>A read takes a moment and stops when its question is given up, as MySqlConnector's statement does.</summary>
    private async Task<PurchaseHistoryPage> PageFor(object question, CancellationToken cancellationToken)
    {
        await Task.Delay(TimeSpan.FromMilliseconds(5), cancellationToken);
        return _pages.GetValueOrDefault(question) ?? new PurchaseHistoryPage([], Next: null);
    }
}
