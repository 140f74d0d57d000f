namespace Supermarket.LoadTest.Scenario;

/// <summary>One time zone's stores and when they open: when any store has finished <see cref="OpensAfterHours"/> hours.</summary>
public sealed record TimeZone(string Name, int FirstStore, int LastStore, int OpensAfterHours)
{
    public int StoreCount => LastStore - FirstStore + 1;
}

/// <summary>
/// The reference client's three time zones: the first quarter of the stores (east) open together; the next quarter
/// (central) when any store has finished its third hour; the remaining half (west) when any has finished its fifth.
/// </summary>
public static class TimeZones
{
    public static IReadOnlyList<TimeZone> For(int stores, int hours)
    {
        var east = Math.Max(1, stores / 4);
        var central = Math.Min(stores / 4, stores - east);
        // With a day shorter than five hours the later zones open when the first store closes instead of never.
        return new List<TimeZone>
        {
            new("east", 1, east, 0),
            new("central", east + 1, east + central, Math.Min(3, hours)),
            new("west", east + central + 1, stores, Math.Min(5, hours)),
        }.Where(zone => zone.StoreCount > 0).ToList();
    }
}
