using System.Globalization;
using System.Text;
using Supermarket.Contracts.Purchases;
using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;

namespace Supermarket.Database.Purchases;

/// <summary>How a purchase is written into its row of <c>purchases</c>, and a batch's sales into its ledger entry: the one
/// format every writer of those tables uses (<see cref="PurchaseStore"/>, and the load test's history filler).</summary>
public static class PurchaseRows
{
    /// <summary>A purchase's lines as stored: a JSON array of [item, quantity] pairs, in the order the till sent them.</summary>
    public static string Items(IReadOnlyList<PurchaseLine> items)
    {
        var text = new StringBuilder(2 + (items.Count * 12)).Append('[');
        for (var i = 0; i < items.Count; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"{(i == 0 ? "" : ",")}[{items[i].ItemId},{items[i].Quantity}]");
        }

        return text.Append(']').ToString();
    }

    /// <summary><c>purchase_date</c> as MySQL reads a DATE.</summary>
    public static string Date(PurchaseRecorded purchase) => purchase.Date.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    /// <summary><c>received_at</c> as MySQL reads a DATETIME(6), in UTC.</summary>
    public static string ReceivedAt(PurchaseRecorded purchase) =>
        purchase.ReceivedAt.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss.ffffff", CultureInfo.InvariantCulture);

    /// <summary>The sales ledger entry of the purchases stored in one transaction (<see cref="SalesLedgerAppend"/>).</summary>
    public static byte[] SalesOf(IEnumerable<PurchaseRecorded> purchases) =>
        SalesLedgerEntry.Encode(purchases.SelectMany(p => p.Items.Select(line => new SaleLine(p.StoreId, line.ItemId, line.Quantity, p.Date))));
}
