namespace Supermarket.Contracts.Purchases;

/// <summary>The purchase dates the system takes: from 2000-01-01 to a year after today (a till's clock a day ahead, a
/// purchase dated ahead on purpose). The API refuses a date outside them, in a purchase and in a history question,
/// and a history question without a bound asks for all of them. A customer's page reads each month the customer holds
/// purchases in, so a span of centuries (MySQL's DATE range, which the API took before issue #72) let one customer
/// make every page long.</summary>
public static class PurchaseDates
{
    public static readonly DateOnly Earliest = new(2000, 1, 1);

    public const int YearsAhead = 1;

    /// <summary>The last date taken today (UTC).</summary>
    public static DateOnly Latest => LatestOn(DateOnly.FromDateTime(DateTime.UtcNow));

    public static DateOnly LatestOn(DateOnly today) => today.AddYears(YearsAhead);
}
