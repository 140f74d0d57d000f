using System.Diagnostics;
using Supermarket.LoadTest.Live;

namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// The chain's day. The closed-loop day (the reference client): every store is a virtual user with one purchase in
/// flight, sending purchases-per-hour × hours purchases, so an "hour" is a count of purchases, not clock time; the time
/// zones open as their triggers fire. The constant and ramp simulations send the same purchases on an
/// <see cref="ArrivalSchedule"/>, every store from the start.
/// </summary>
public sealed class ChainDay(LoadOptions options, PurchaseSender sender)
{
    private const string AllStores = "all stores";

    private readonly Dictionary<int, TaskCompletionSource> _hourReached = [];
    private readonly long _startedAt = Stopwatch.GetTimestamp();

    /// <summary>When each time zone opened, in seconds from the start.</summary>
    public List<(string Zone, double AtSeconds)> Openings { get; } = [];

    /// <summary>Each time zone (all stores at once for the open simulations) and when it opened, so far.</summary>
    public IReadOnlyList<ZoneState> Zones()
    {
        var zones = options.Simulation == Simulation.Day
            ? TimeZones.For(options.Stores, options.Hours).Select(zone => (zone.Name, zone.StoreCount))
            : [(AllStores, options.Stores)];
        lock (Openings)
        {
            return [.. zones.Select(zone => new ZoneState(zone.Item1, zone.Item2,
                Openings.Where(opening => opening.Zone == zone.Item1).Select(opening => (double?)opening.AtSeconds).FirstOrDefault()))];
        }
    }

    public Task RunAsync() => options.Simulation == Simulation.Day ? RunClosedAsync() : RunOpenAsync(ArrivalSchedule.For(options));

    private async Task RunClosedAsync()
    {
        var zones = TimeZones.For(options.Stores, options.Hours);
        foreach (var zone in zones)
        {
            _hourReached.TryAdd(zone.OpensAfterHours, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
        }

        HourFinished(0);
        var stores = zones.SelectMany(zone => Enumerable.Range(zone.FirstStore, zone.StoreCount).Select(store => RunStoreAsync(zone, store)));
        await Task.WhenAll(stores.ToList());
    }

    private async Task RunStoreAsync(TimeZone zone, int store)
    {
        await _hourReached[zone.OpensAfterHours].Task;
        if (store == zone.FirstStore)
        {
            lock (Openings)
            {
                Openings.Add((zone.Name, Stopwatch.GetElapsedTime(_startedAt).TotalSeconds));
            }
        }

        var factory = new PurchaseFactory(options, store);
        for (var hour = 1; hour <= options.Hours; hour++)
        {
            for (var i = 0; i < options.PurchasesPerHour; i++)
            {
                await sender.SendAsync(factory.Next());
            }

            HourFinished(hour);
        }
    }

    /// <summary>Some store has finished <paramref name="hours"/> hours: open every zone waiting for that many.</summary>
    private void HourFinished(int hours)
    {
        if (_hourReached.TryGetValue(hours, out var reached))
        {
            reached.TrySetResult();
        }
    }

    private async Task RunOpenAsync(ArrivalSchedule schedule)
    {
        var factories = Enumerable.Range(1, options.Stores).Select(store => new PurchaseFactory(options, store)).ToArray();
        var inFlight = new SemaphoreSlim(options.MaxInFlight);
        var sending = new List<Task>();
        lock (Openings)
        {
            Openings.Add((AllStores, 0));
        }

        for (long sent = 0; sent < options.TotalPurchases;)
        {
            var due = schedule.Due(Stopwatch.GetElapsedTime(_startedAt).TotalSeconds);
            for (; sent < due; sent++)
            {
                var purchase = factories[sent % options.Stores].Next();
                if (inFlight.Wait(0))
                {
                    sending.Add(SendThenReleaseAsync(purchase, inFlight));
                }
                else
                {
                    sender.Drop(purchase);
                }
            }

            await Task.Delay(1);
        }

        await Task.WhenAll(sending);
    }

    private async Task SendThenReleaseAsync(PlannedPurchase purchase, SemaphoreSlim inFlight)
    {
        try
        {
            await sender.SendAsync(purchase);
        }
        finally
        {
            inFlight.Release();
        }
    }
}
