using System.Text.Json.Serialization;

namespace Supermarket.Api.Insights;

// The course spec's shapes: both answers name their array "stores", and ids are spelled "itemID" and "storeID".

public sealed record TopItemsResponse([property: JsonPropertyName("stores")] ItemCount[] Stores);

public sealed record ItemCount(
    [property: JsonPropertyName("itemID")] int ItemId,
    [property: JsonPropertyName("numberOfItems")] long NumberOfItems);

public sealed record TopStoresResponse([property: JsonPropertyName("stores")] StoreCount[] Stores);

public sealed record StoreCount(
    [property: JsonPropertyName("storeID")] int StoreId,
    [property: JsonPropertyName("numberOfItems")] long NumberOfItems);
