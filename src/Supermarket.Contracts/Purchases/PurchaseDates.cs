namespace Supermarket.Contracts.Purchases;

/// <summary>The purchase dates storage holds: MySQL's DATE range. The API refuses a date outside it, and a history
/// question without a bound asks for all of it, so every purchase stored is in some answer.</summary>
public static class PurchaseDates
{
    public static readonly DateOnly Earliest = new(1000, 1, 1);

    public static readonly DateOnly Latest = new(9999, 12, 31);
}
