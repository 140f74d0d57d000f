using System.Buffers.Text;
using System.Text.Json;
using Supermarket.Api.Problems;
using Supermarket.Contracts.Purchases;
using Supermarket.Contracts.Catalog;

namespace Supermarket.Api.Purchases;

/// <summary>Reads the course's body straight from UTF-8: "numberOfItems:" (the generated clients' colon) or plain, and
/// ItemID as digits or a number. By hand, so every malformed part gets an error naming its field.</summary>
public static class PurchaseBodyParser
{
    private const int MaxDepth = 16;

    public static InputError? TryParse(ReadOnlySpan<byte> json, CatalogOptions catalog, out PurchaseLine[] lines)
    {
        lines = [];
        // The reader checks the UTF-8 of the strings it decodes, not of values it skips.
        if (!System.Text.Unicode.Utf8.IsValid(json))
        {
            return new InputError("body", "is not valid UTF-8.");
        }

        try
        {
            var reader = new Utf8JsonReader(json, new JsonReaderOptions { MaxDepth = MaxDepth });
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            {
                return new InputError("body", "must be a JSON object with an \"items\" array.");
            }

            PurchaseLine[]? items = null;
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                var isItems = reader.ValueTextEquals("items"u8);
                reader.Read();
                if (!isItems)
                {
                    reader.Skip();
                    continue;
                }

                var error = ReadItems(ref reader, catalog, out items);
                if (error is not null)
                {
                    return error;
                }
            }

            if (reader.Read())
            {
                return new InputError("body", "has content after the JSON object.");
            }

            if (items is null)
            {
                return new InputError("items", "is required.");
            }

            lines = items;
            return null;
        }
        catch (JsonException exception)
        {
            return new InputError("body", $"is not valid JSON ({exception.Message})");
        }
    }

    private static InputError? ReadItems(ref Utf8JsonReader reader, CatalogOptions catalog, out PurchaseLine[]? items)
    {
        items = null;
        if (reader.TokenType != JsonTokenType.StartArray)
        {
            return new InputError("items", "must be an array.");
        }

        var lines = new List<PurchaseLine>(8);
        while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
        {
            if (lines.Count == catalog.MaxItemsPerPurchase)
            {
                return new InputError("items", $"must hold at most {catalog.MaxItemsPerPurchase} items.");
            }

            var error = ReadLine(ref reader, catalog, lines.Count, out var line);
            if (error is not null)
            {
                return error;
            }

            lines.Add(line);
        }

        if (lines.Count == 0)
        {
            return new InputError("items", "must hold at least one item.");
        }

        items = [.. lines];
        return null;
    }

    private static InputError? ReadLine(ref Utf8JsonReader reader, CatalogOptions catalog, int index, out PurchaseLine line)
    {
        line = default;
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            return new InputError($"items[{index}]", "must be an object with ItemID and numberOfItems.");
        }

        int? itemId = null, quantity = null;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            if (reader.ValueTextEquals("ItemID"u8) || reader.ValueTextEquals("itemID"u8) || reader.ValueTextEquals("itemId"u8))
            {
                reader.Read();
                if (!TryReadInteger(ref reader, allowDigitString: true, out var value))
                {
                    return new InputError($"items[{index}].ItemID", "must be an integer or a string of digits.");
                }

                itemId = value;
            }
            else if (reader.ValueTextEquals("numberOfItems:"u8) || reader.ValueTextEquals("numberOfItems"u8))
            {
                reader.Read();
                if (!TryReadInteger(ref reader, allowDigitString: false, out var value))
                {
                    return new InputError($"items[{index}].numberOfItems", "must be an integer.");
                }

                quantity = value;
            }
            else
            {
                reader.Read();
                reader.Skip();
            }
        }

        if (itemId is not { } item)
        {
            return new InputError($"items[{index}].ItemID", "is required.");
        }

        if (item < 1 || item > catalog.MaxItemId)
        {
            return new InputError($"items[{index}].ItemID", $"must be between 1 and {catalog.MaxItemId}.");
        }

        if (quantity is not { } units)
        {
            return new InputError($"items[{index}].numberOfItems", "is required.");
        }

        if (units < 1 || units > catalog.MaxQuantity)
        {
            return new InputError($"items[{index}].numberOfItems", $"must be between 1 and {catalog.MaxQuantity}.");
        }

        line = new PurchaseLine(item, units);
        return null;
    }

    private static bool TryReadInteger(ref Utf8JsonReader reader, bool allowDigitString, out int value)
    {
        value = 0;
        switch (reader.TokenType)
        {
            case JsonTokenType.Number:
                return reader.TryGetInt32(out value);
            case JsonTokenType.String when allowDigitString && !reader.ValueIsEscaped:
                var digits = reader.ValueSpan;
                return digits.Length is > 0 and <= 10
                    && digits.IndexOfAnyExceptInRange((byte)'0', (byte)'9') < 0
                    && Utf8Parser.TryParse(digits, out value, out var consumed)
                    && consumed == digits.Length;
            default:
                return false;
        }
    }
}
