using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Tests;

public sealed class BufferPoolPagesTests
{
    [Fact]
    public void The_day_s_pages_are_the_difference_of_two_readings()
    {
        var day = new BufferPoolPages(ReadFromDisk: 130, Requested: 5_000, Written: 70).Since(new BufferPoolPages(100, 1_000, 20));

        Assert.Equal(new BufferPoolPages(30, 4_000, 50), day);
    }

    [Fact]
    public void Counters_of_a_later_start_of_MariaDB_are_not_compared_even_when_they_grew_past_the_first()
    {
        var started = new DateTimeOffset(2026, 11, 28, 5, 0, 0, TimeSpan.Zero);
        var before = new BufferPoolPages(ReadFromDisk: 10, Requested: 1_000, Written: 0, ServerStartedAt: started);
        var afterARestart = new BufferPoolPages(ReadFromDisk: 300, Requested: 90_000, Written: 40, ServerStartedAt: started.AddMinutes(2));

        Assert.Null(afterARestart.Since(before));
        Assert.NotNull((afterARestart with { ServerStartedAt = started.AddSeconds(1) }).Since(before));
    }

    [Fact]
    public void A_counter_that_went_back_means_MariaDB_restarted_and_the_day_s_pages_are_not_known()
    {
        // Read before a restart, then after it: the counters began again at zero.
        var day = new BufferPoolPages(ReadFromDisk: 28, Requested: 413_980, Written: 0).Since(new BufferPoolPages(1_059, 1_527_482, 0));

        Assert.Null(day);
    }

    [Fact]
    public void The_report_s_summary_keeps_the_pages_and_leaves_out_when_MariaDB_started()
    {
        var run = new RunResult { DayBufferPool = new BufferPoolPages(500, 100_000, 3_000, DateTimeOffset.UtcNow) };

        var json = System.Text.Json.JsonSerializer.Serialize(run, RunResult.Json);
        var read = System.Text.Json.JsonSerializer.Deserialize<RunResult>(json, RunResult.Json)!;

        Assert.DoesNotContain("ServerStartedAt", json, StringComparison.OrdinalIgnoreCase);
        Assert.Equal(new BufferPoolPages(500, 100_000, 3_000), read.DayBufferPool);
    }
}
