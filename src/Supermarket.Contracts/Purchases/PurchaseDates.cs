namespace Supermarket.Contracts.Purchases;

/// <summary>The dates taken, in a purchase and a history question: bounded, since a customer's page reads each month
/// the customer holds purchases in, and a span of centuries would let one customer make every page long.</summary>
public static class PurchaseDates
{
    public static readonly DateOnly Earliest = new(2000, 1, 1);

    public const int YearsAhead = 1;

    public static DateOnly Latest => LatestOn(DateOnly.FromDateTime(DateTime.UtcNow));

    public static DateOnly LatestOn(DateOnly today) => today.AddYears(YearsAhead);
}
