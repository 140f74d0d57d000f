using System.Globalization;
using Supermarket.Api.Problems;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Purchases;

/// <summary>Strings, checked here, so a malformed id gets a problem+json 400 naming it, not a bare 404.</summary>
public static class PurchasePath
{
    public static InputError? TryParse(string storeId, string customerId, string date, CatalogOptions catalog,
        out int store, out int customer, out DateOnly day)
    {
        customer = 0;
        day = default;
        return ParseId(storeId, "storeID", catalog.MaxStoreId, out store)
            ?? ParseId(customerId, "custID", int.MaxValue, out customer)
            ?? ParseDate(date, "date", out day);
    }

    public static InputError? ParseId(string text, string field, int max, out int id)
    {
        if (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out id))
        {
            return new InputError(field, "must be a positive integer.");
        }

        return id >= 1 && id <= max ? null : new InputError(field, $"must be between 1 and {max}.");
    }

    public static InputError? ParseDate(string? text, string field, out DateOnly day)
    {
        if (text?.Length != 8)
        {
            day = default;
            return new InputError(field, "must have 8 digits, as yyyyMMdd.");
        }

        if (!DateOnly.TryParseExact(text, "yyyyMMdd", CultureInfo.InvariantCulture, DateTimeStyles.None, out day))
        {
            return new InputError(field, "must be a real calendar date, as yyyyMMdd.");
        }

        var latest = PurchaseDates.Latest;
        return day >= PurchaseDates.Earliest && day <= latest
            ? null
            : new InputError(field, $"must be between {PurchaseDates.Earliest:yyyyMMdd} and {latest:yyyyMMdd}, the purchase dates the system takes.");
    }
}
