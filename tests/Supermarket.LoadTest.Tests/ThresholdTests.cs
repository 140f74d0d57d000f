using Supermarket.LoadTest;
using Supermarket.LoadTest.Reporting;
using Supermarket.LoadTest.Thresholds;

namespace Supermarket.LoadTest.Tests;

public sealed class ThresholdTests
{
    private static readonly RunResult Run = new()
    {
        Successful = 10_000, Unsuccessful = 3, WallSeconds = 10, RequestsPerSecond = 1_000, P99Ms = 41.5,
        CountedAfterLastResponseSeconds = 2.5,
    };

    [Theory]
    [InlineData("p99<=50ms", true)]
    [InlineData("p99 < 41.5", false)]
    [InlineData("p99<=41.5", true)]
    [InlineData("failures=0", false)]
    [InlineData("failures==3", true)]
    [InlineData("rps>=1000req/s", true)]
    [InlineData("rps>1000", false)]
    [InlineData("lag<=2s", false)]
    [InlineData("e2e>=800", true)] // 10,000 purchases in 12.5 s
    public void A_threshold_is_met_or_breached_by_the_runs_figure(string text, bool met)
    {
        Assert.True(Threshold.TryParse(text, out var threshold, out var error), error);

        Assert.Equal(met, threshold!.Evaluate(Run).Passed);
    }

    [Fact]
    public void A_figure_the_run_did_not_measure_breaches_its_threshold()
    {
        Assert.True(Threshold.TryParse("lag<=100", out var threshold, out _));

        var result = threshold!.Evaluate(Run with { CountedAfterLastResponseSeconds = null });

        Assert.False(result.Passed);
        Assert.Null(result.Actual);
    }

    [Theory]
    [InlineData("p99")]
    [InlineData("p99<=fast")]
    [InlineData("latency<=50")]
    [InlineData("p99<=50s")]
    public void A_malformed_threshold_is_refused_by_the_command_line(string text)
    {
        Assert.False(Threshold.TryParse(text, out _, out var error));
        Assert.ThrowsAny<ArgumentException>(() => LoadOptions.Parse(["--threshold", text]));
        Assert.NotEmpty(error);
    }

    [Fact]
    public void Thresholds_repeat_on_the_command_line()
    {
        var options = LoadOptions.Parse(["--threshold", "p99<=50ms", "--threshold", "failures=0"]);

        Assert.Equal(["p99 <= 50.0 ms", "failures = 0 requests"], options.Thresholds.Select(threshold => threshold.ToString()));
    }
}
