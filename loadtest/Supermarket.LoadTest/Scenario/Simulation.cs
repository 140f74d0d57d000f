namespace Supermarket.LoadTest.Scenario;

/// <summary>How the day's purchases are sent (--simulation).</summary>
public enum Simulation
{
    /// <summary>The reference client's closed loop: every store has one purchase in flight, sends the next when the
    /// previous is answered, and the time zones open in turn (<see cref="TimeZones"/>).</summary>
    Day,

    /// <summary>Purchases arrive at a steady rate whatever the answers: latency under a known load.</summary>
    Constant,

    /// <summary>The arrival rate rises evenly from a first to a last rate: where latency breaks.</summary>
    Ramp,
}

public static class SimulationNames
{
    public static string Describe(this Simulation simulation) => simulation switch
    {
        Simulation.Day => "closed-loop day",
        Simulation.Constant => "constant arrival rate",
        Simulation.Ramp => "ramp",
        _ => throw new ArgumentOutOfRangeException(nameof(simulation)),
    };
}
