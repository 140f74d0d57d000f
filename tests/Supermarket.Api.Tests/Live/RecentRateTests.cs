using Supermarket.ServiceDefaults.Observability;

namespace Supermarket.Api.Tests.Live;

/// <summary>The live page's "a second, just now" figures (<see cref="RecentRate"/>): the mean over the last whole seconds,
/// the second under way left out, and nothing once the seconds counted have passed.</summary>
public sealed class RecentRateTests
{
    [Fact]
    public void The_rate_is_the_mean_of_the_last_whole_seconds_and_falls_to_zero_once_they_pass()
    {
        var clock = new SetClock(DateTimeOffset.FromUnixTimeSeconds(1_000));
        var rate = new RecentRate(clock, seconds: 5);
        Assert.Null(rate.Last);

        rate.Add(10);
        clock.Now = clock.Now.AddSeconds(0.5);
        rate.Add(5);
        // The second under way is not over: not counted yet.
        Assert.Equal(0, rate.PerSecond());

        clock.Now = DateTimeOffset.FromUnixTimeSeconds(1_001);
        rate.Add(20);
        clock.Now = DateTimeOffset.FromUnixTimeSeconds(1_002);
        Assert.Equal((15 + 20) / 5.0, rate.PerSecond());
        Assert.Equal(DateTimeOffset.FromUnixTimeSeconds(1_001), rate.Last);

        // Six seconds on, the ring's slots have been reused or passed: what came then no longer counts.
        clock.Now = DateTimeOffset.FromUnixTimeSeconds(1_006);
        rate.Add(1);
        clock.Now = DateTimeOffset.FromUnixTimeSeconds(1_007);
        Assert.Equal(1 / 5.0, rate.PerSecond());
        clock.Now = DateTimeOffset.FromUnixTimeSeconds(1_100);
        Assert.Equal(0, rate.PerSecond());
    }

    private sealed class SetClock(DateTimeOffset now) : TimeProvider
    {
        public DateTimeOffset Now { get; set; } = now;

        public override DateTimeOffset GetUtcNow() => Now;
    }
}
