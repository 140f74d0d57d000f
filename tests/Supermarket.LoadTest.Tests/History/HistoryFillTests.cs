using Supermarket.LoadTest;
using Supermarket.LoadTest.History;

namespace Supermarket.LoadTest.Tests.History;

/// <summary>What the history filler refuses before it touches the database (its filling is tested on MariaDB, in the
/// integration tests' HistoryFillOnMariaDbTests).</summary>
public sealed class HistoryFillTests
{
    /// <summary>The filler writes rows straight to MySQL, past the API's check of the store: a store beyond the catalog
    /// would be history the system could never have stored, nor count (#57).</summary>
    [Fact]
    public async Task A_chain_of_more_stores_than_the_catalog_holds_is_refused_before_anything_is_stored()
    {
        var log = new StringWriter();
        var options = new HistoryFillOptions
        {
            Days = 1,
            MaxStoreId = 512,
            Chain = new LoadOptions { Stores = 513, Date = "20180210" },
            // Nowhere: a fill that tried to store anything would fail to connect instead of being refused.
            Database = "Server=127.0.0.1;Port=1;Database=none;User ID=none;Password=none;Connection Timeout=1",
        };

        var exitCode = await new HistoryFill(options, log).RunAsync(TestContext.Current.CancellationToken);

        Assert.Equal(2, exitCode);
        Assert.Contains("Catalog:MaxStoreId", log.ToString(), StringComparison.Ordinal);
    }
}
