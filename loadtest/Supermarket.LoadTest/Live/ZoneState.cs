namespace Supermarket.LoadTest.Live;

/// <summary>A time zone's stores and when they opened, in seconds from the start (null: not yet).</summary>
public sealed record ZoneState(string Zone, int Stores, double? OpenedAt);
