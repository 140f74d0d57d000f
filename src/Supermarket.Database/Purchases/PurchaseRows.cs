using System.Globalization;
using System.Text;
using Supermarket.Contracts.Purchases;
using Supermarket.Contracts.Sales;
using Supermarket.Database.Ledger;

namespace Supermarket.Database.Purchases;

/// <summary>The format every writer of these tables uses: <see cref="PurchaseStore"/>, the history filler.</summary>
public static class PurchaseRows
{
    public static string Items(IReadOnlyList<PurchaseLine> items)
    {
        var text = new StringBuilder(2 + (items.Count * 12)).Append('[');
        for (var i = 0; i < items.Count; i++)
        {
            text.Append(CultureInfo.InvariantCulture, $"{(i == 0 ? "" : ",")}[{items[i].ItemId},{items[i].Quantity}]");
        }

        return text.Append(']').ToString();
    }

    public static string Date(PurchaseRecorded purchase) => purchase.Date.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    public static string ReceivedAt(PurchaseRecorded purchase) =>
        purchase.ReceivedAt.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss.ffffff", CultureInfo.InvariantCulture);

    public static byte[] SalesOf(IEnumerable<PurchaseRecorded> purchases) =>
        SalesLedgerEntry.Encode(purchases.SelectMany(p => p.Items.Select(line => new SaleLine(p.StoreId, line.ItemId, line.Quantity, p.Date))));
}
