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
    public void A_counter_that_went_back_means_MariaDB_restarted_and_the_day_s_pages_are_not_known()
    {
        // Read before a restart, then after it: the counters began again at zero.
        var day = new BufferPoolPages(ReadFromDisk: 28, Requested: 413_980, Written: 0).Since(new BufferPoolPages(1_059, 1_527_482, 0));

        Assert.Null(day);
    }
}
