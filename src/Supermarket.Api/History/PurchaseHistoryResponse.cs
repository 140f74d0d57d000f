using System.Globalization;
using System.Text.Json.Serialization;
using Supermarket.Contracts.History;

namespace Supermarket.Api.History;

// Spelled as the course spells ids elsewhere ("storeID", "custID", "itemID"); dates as the paths take them.

/// <summary>A page of purchases, newest first; <c>continuation</c> asks for the next page (null: this is the last).</summary>
public sealed record PurchaseHistoryResponse(
    [property: JsonPropertyName("purchases")] PurchaseView[] Purchases,
    [property: JsonPropertyName("continuation")] string? Continuation);

public sealed record PurchaseView(
    [property: JsonPropertyName("purchaseID")] Guid PurchaseId,
    [property: JsonPropertyName("storeID")] int StoreId,
    [property: JsonPropertyName("custID")] int CustomerId,
    [property: JsonPropertyName("date")] string Date,
    [property: JsonPropertyName("receivedAt")] DateTimeOffset ReceivedAt,
    [property: JsonPropertyName("items")] LineView[] Items)
{
    public static PurchaseView From(StoredPurchase purchase) => new(
        purchase.PurchaseId, purchase.StoreId, purchase.CustomerId,
        purchase.Date.ToString("yyyyMMdd", CultureInfo.InvariantCulture), purchase.ReceivedAt,
        [.. purchase.Items.Select(line => new LineView(line.ItemId, line.Quantity))]);
}

public sealed record LineView(
    [property: JsonPropertyName("itemID")] int ItemId,
    [property: JsonPropertyName("numberOfItems")] int NumberOfItems);
