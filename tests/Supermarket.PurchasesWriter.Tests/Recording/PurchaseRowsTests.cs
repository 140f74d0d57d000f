using Supermarket.Contracts.Purchases;
using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;
using Supermarket.Database.Purchases;

namespace Supermarket.PurchasesWriter.Tests.Recording;

public sealed class PurchaseRowsTests
{
    [Fact]
    public void Each_sale_of_a_transaction_s_ledger_entry_is_on_its_purchase_s_own_date()
    {
        var monday = new DateOnly(2024, 3, 4);
        var friday = monday.AddDays(4);
        PurchaseRecorded[] purchases =
        [
            Purchase(store: 1, monday, new PurchaseLine(10, 2), new PurchaseLine(11, 1)),
            Purchase(store: 2, friday, new PurchaseLine(10, 5)),
            Purchase(store: 1, monday, new PurchaseLine(10, 3)),
        ];

        var lines = new List<SaleLine>();
        SalesLedgerEntry.Decode(PurchaseRows.SalesOf(purchases), lines);

        SaleLine[] expected = [new(1, 10, 2, monday), new(1, 11, 1, monday), new(1, 10, 3, monday), new(2, 10, 5, friday)];
        Assert.Equal(expected, lines);
    }

    private static PurchaseRecorded Purchase(int store, DateOnly date, params PurchaseLine[] items) =>
        new(Guid.CreateVersion7(), store, CustomerId: 7, date, items, DateTimeOffset.UtcNow);
}
