using System.ComponentModel;
using System.Globalization;
using Microsoft.AspNetCore.Mvc;
using Supermarket.Api.Problems;

namespace Supermarket.Api.Insights;

/// <summary>The days a sales question counts, both inclusive; either left out, open; both, all time.</summary>
public sealed record SalesDays(
    [property: FromQuery(Name = "from"), Description("The range's first day, as yyyyMMdd (the purchases' own dates); left out: from the first day kept.")] string? From,
    [property: FromQuery(Name = "to"), Description("The range's last day, as yyyyMMdd, inclusive; left out: to the last day with a sale.")] string? To,
    HttpRequest Request)
{
    public InputError? Parse(out DateOnly? from, out DateOnly? to)
    {
        to = null;
        return ParseDay("from", From, out from)
            ?? ParseDay("to", To, out to)
            ?? (from > to ? new InputError("from", $"must not be after to ({to:yyyyMMdd}).") : null);
    }

    private InputError? ParseDay(string parameter, string? text, out DateOnly? day)
    {
        day = null;
        if (Request.Query[parameter].Count > 1)
        {
            return new InputError(parameter, "is given more than once; give it once.");
        }

        if (text is null)
        {
            return null;
        }

        if (text.Length != 8 || !text.All(char.IsAsciiDigit))
        {
            return new InputError(parameter, "must have 8 digits, as yyyyMMdd.");
        }

        if (!DateOnly.TryParseExact(text, "yyyyMMdd", CultureInfo.InvariantCulture, DateTimeStyles.None, out var parsed))
        {
            return new InputError(parameter, "must be a real calendar date, as yyyyMMdd.");
        }

        day = parsed;
        return null;
    }
}

public sealed class SalesRangeRefused(Contracts.Sales.RangeRefused refused) : Exception(refused.Reason)
{
    public Contracts.Sales.RangeRefused Refused { get; } = refused;
}
