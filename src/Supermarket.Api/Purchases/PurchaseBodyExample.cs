using System.Text.Json.Serialization;

namespace Supermarket.Api.Purchases;

/// <summary>The body as the course's generated clients send it; used only to document the endpoint.
/// <see cref="PurchaseBodyParser"/> reads the real thing.</summary>
public sealed record PurchaseBodyExample(PurchaseItemExample[] Items);

public sealed record PurchaseItemExample(
    [property: JsonPropertyName("ItemID")] string ItemId,
    [property: JsonPropertyName("numberOfItems:")] int NumberOfItems);
