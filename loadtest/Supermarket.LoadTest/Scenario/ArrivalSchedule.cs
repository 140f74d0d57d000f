namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// When the open simulations' purchases are due: how many of the day's <see cref="Total"/> should have been sent
/// <see cref="Due"/> seconds into the run. A constant rate sends them evenly; a ramp's rate rises in a straight line
/// from the first to the last rate, so the count due is the area under that line, and the ramp lasts as long as the
/// day's purchases take at the mean of the two rates.
/// </summary>
public sealed class ArrivalSchedule
{
    private readonly double _firstRate;
    private readonly double _lastRate;

    /// <param name="firstRate">Purchases per second (all stores together) at the start.</param>
    /// <param name="lastRate">Purchases per second at the end; equal to the first for a constant rate.</param>
    public ArrivalSchedule(long total, double firstRate, double lastRate)
    {
        if (firstRate <= 0 || lastRate <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(firstRate), "Arrival rates must be positive.");
        }

        Total = total;
        _firstRate = firstRate;
        _lastRate = lastRate;
        Seconds = 2.0 * total / (firstRate + lastRate);
    }

    public long Total { get; }

    /// <summary>How long sending every purchase takes.</summary>
    public double Seconds { get; }

    public static ArrivalSchedule For(LoadOptions options) => options.Simulation switch
    {
        Simulation.Constant => new(options.TotalPurchases, options.Rate * options.Stores, options.Rate * options.Stores),
        Simulation.Ramp => new(options.TotalPurchases, options.RampFrom * options.Stores, options.Rate * options.Stores),
        _ => throw new ArgumentOutOfRangeException(nameof(options), "The closed-loop day has no arrival schedule."),
    };

    /// <summary>The arrival rate (purchases per second) at a moment of the run.</summary>
    public double RateAt(double seconds) => _firstRate + ((_lastRate - _firstRate) * Math.Clamp(seconds / Seconds, 0, 1));

    /// <summary>How many purchases are due by then, at least the first and at most all.</summary>
    public long Due(double seconds)
    {
        var t = Math.Clamp(seconds, 0, Seconds);
        var area = (_firstRate * t) + ((_lastRate - _firstRate) * t * t / (2 * Seconds));
        return Math.Clamp((long)area + 1, 1, Total);
    }
}
