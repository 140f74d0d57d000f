using Supermarket.AppHost.Services;

namespace Supermarket.AppHost.Tests;

/// <summary>MariaDB counts as healthy, and the system starts, once it has loaded back the pages it held at shutdown:
/// the statuses InnoDB reports while it loads keep it waiting; the end of a load, or none to do, lets it go.</summary>
public sealed class BufferPoolLoadTests
{
    [Theory]
    [InlineData("Loading buffer pool(s) from /work/main/.local/mariadb/data/ib_buffer_pool", true)]
    [InlineData("Loaded 52736/262144 pages", true)]
    [InlineData("Buffer pool(s) load completed at 261127  6:05:12", false)]
    [InlineData("Buffer pool(s) load aborted on request", false)]
    [InlineData("Cannot open '/work/main/.local/mariadb/data/ib_buffer_pool' for reading: No such file or directory", false)]
    [InlineData("", false)]
    public void A_server_still_loading_its_buffer_pool_is_not_ready(string status, bool loading) =>
        Assert.Equal(loading, MariaDb.StillLoading(status));
}
