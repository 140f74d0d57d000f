using System.Text.RegularExpressions;
using Supermarket.LoadTest.Live;
using Supermarket.LoadTest.Reporting;
using Supermarket.LoadTest.Scenario;

namespace Supermarket.LoadTest.Tests;

public sealed class ReportTests
{
    [Theory]
    [InlineData(10.3, 12, 2)]
    [InlineData(47, 50, 10)]
    [InlineData(1_402, 1_500, 500)]
    [InlineData(0.37, 0.4, 0.1)]
    [InlineData(5, 5, 1)]
    public void Axes_end_on_a_round_step_at_or_above_the_highest_value(double highest, double top, double step)
    {
        var (actualTop, actualStep) = LineChart.Axis(highest);

        Assert.Equal(top, actualTop, 9);
        Assert.Equal(step, actualStep, 9);
    }

    [Fact]
    public void Storage_trails_by_how_long_ago_the_201s_reached_what_is_stored()
    {
        var timeline = new Timeline();
        timeline.Add(Sample(seconds: 1, acknowledged: 1_000));
        timeline.Add(Sample(seconds: 2, acknowledged: 3_000));

        Assert.Equal(1.5, timeline.LagSeconds(now: 3, acknowledgedNow: 5_000, done: 2_000)!.Value, 9);
        Assert.Equal(0, timeline.LagSeconds(now: 3, acknowledgedNow: 5_000, done: 5_000));
        Assert.Equal(0.5, timeline.LagSeconds(now: 3, acknowledgedNow: 5_000, done: 4_000)!.Value, 9);
        Assert.Null(timeline.LagSeconds(now: 3, acknowledgedNow: 5_000, done: null));
    }

    [Fact]
    public void A_comparison_sets_every_figure_side_by_side_with_the_ratio_to_the_first_run()
    {
        var first = Folder(new RunResult { Label = "one node", Successful = 1_000, WallSeconds = 10, RequestsPerSecond = 12_000, P99Ms = 40, CountedAfterLastResponseSeconds = 0 });
        var second = Folder(new RunResult { Label = "three nodes", Successful = 1_000, WallSeconds = 10, RequestsPerSecond = 9_000, P99Ms = 50, CountedAfterLastResponseSeconds = 0 });

        var table = RunComparison.Table([first, second]);

        Assert.Contains("| | one node | three nodes |", table);
        Assert.Contains("| POST rate (rps) | 12,000 req/s | 9,000 req/s (0.75×) |", table);
        Assert.Contains("| p99 POST latency (p99) | 40.0 ms | 50.0 ms (1.25×) |", table);
        Assert.Equal(RunFigure.All.Count, RunFigure.All.Count(figure => table.Contains($"({figure.Name}) |", StringComparison.Ordinal)));
    }

    [Fact]
    public void Runs_on_databases_of_different_sizes_are_drawn_as_a_curve_over_the_history_each_held()
    {
        var ceiling = Folder(new RunResult { Label = "ceiling", Successful = 1_000, WallSeconds = 1, P99Ms = 5 });
        var large = Folder(new RunResult { Label = "100 M", Successful = 1_000, WallSeconds = 10, P99Ms = 73.6, PurchasesStoredBefore = 100_200_000 });
        var small = Folder(new RunResult { Label = "1.4 M", Successful = 1_000, WallSeconds = 10, P99Ms = 70.1, PurchasesStoredBefore = 1_400_000 });

        var curve = RunComparison.Curve([ceiling, large, small]);

        Assert.NotNull(curve);
        Assert.Contains("million purchases stored before the run", curve);
        // One point a run with a database, in the order of their history: the ceiling has none.
        var points = Regex.Matches(curve, @"<title>p99: ([0-9.]+) ms at ([0-9.]+) million purchases</title>").Select(match => (match.Groups[1].Value, match.Groups[2].Value));
        Assert.Equal([("70.1", "1.4"), ("73.6", "100.2")], points);
        // A chart with nothing to draw is left out: these runs measured no CPU.
        Assert.DoesNotContain("CPU a purchase over the day", curve);
        Assert.Null(RunComparison.Curve([ceiling, small]));
    }

    [Fact]
    public void The_questions_figures_are_the_slower_kinds_p99_and_p99_9_and_a_purchases_share_of_the_days_cpu_and_pages()
    {
        var run = new RunResult
        {
            Successful = 2_000,
            Questions =
            [
                new(DayReaders.StoreDay, 10, 0, 5, 40, 45, 50), new(DayReaders.CustomerPurchases, 10, 0, 5, 60, 65, 70),
                new(DayReaders.TopItems, 10, 0, 5, 20, 25, 30), new(DayReaders.TopStores, 10, 0, 5, 15, 28, 29),
            ],
            Cpu = new CpuFigures(new Dictionary<string, double> { ["mariadb"] = 0.1 }, new Dictionary<string, double> { ["mariadb"] = 9 }),
            DayBufferPool = new BufferPoolPages(ReadFromDisk: 500, Requested: 100_000, Written: 3_000),
        };

        Assert.Equal(60, RunFigure.Find("history-p99")!.Read(run));
        Assert.Equal(20, RunFigure.Find("sales-p99")!.Read(run));
        Assert.Equal(28, RunFigure.Find("sales-p999")!.Read(run));
        Assert.Equal(50, RunFigure.Find("db-cpu")!.Read(run)!.Value, 9);
        Assert.Null(RunFigure.Find("writer-cpu")!.Read(run));
        Assert.Equal(250, RunFigure.Find("db-reads")!.Read(run)!.Value, 9);
        Assert.Equal(1_500, RunFigure.Find("db-writes")!.Read(run)!.Value, 9);
        Assert.Null(RunFigure.Find("db-reads")!.Read(new RunResult { Successful = 2_000 }));
        Assert.Null(RunFigure.Find("history-p99")!.Read(new RunResult()));
    }

    private static TimelineSample Sample(double seconds, long acknowledged) =>
        new(seconds, acknowledged, 0, default, new Dictionary<int, long>(), acknowledged, 0, null, null, null, null, null);

    private static string Folder(RunResult result)
    {
        var folder = Directory.CreateTempSubdirectory("supermarket-report-").FullName;
        result.Write(Path.Combine(folder, "summary.json"));
        return folder;
    }
}
