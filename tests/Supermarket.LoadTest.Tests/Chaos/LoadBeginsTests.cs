using Supermarket.LoadTest.Chaos;

namespace Supermarket.LoadTest.Tests.Chaos;

/// <summary>A chaos day's fault is timed from the line its load test prints as the purchases begin
/// (<see cref="LoadTestDays"/>): a headline the chaos run no longer recognised would put every fault after the day.</summary>
public sealed class LoadBeginsTests
{
    [Fact]
    public void The_run_s_headline_begins_the_load_and_its_live_lines_do_not()
    {
        var options = new LoadOptions { Url = new Uri("http://nginx/") };

        Assert.True(LoadRun.BeginsTheLoad(LoadRun.Headline(options)));
        Assert.False(LoadRun.BeginsTheLoad("[     8 s]        146/14,400         5 req/s  p99 864.8 ms  failures 0  queued for the writer 0  storage trails 0.2 s"));
        Assert.False(LoadRun.BeginsTheLoad("Creating supermarket_loadtest_run       ... done"));
    }
}
