using Supermarket.LoadTest;
using Supermarket.LoadTest.Scenario;
using Supermarket.LoadTest.Verification;

namespace Supermarket.LoadTest.Tests;

/// <summary>A verification that cannot finish (a query past its command timeout on a large history, the database gone)
/// is a failed check of the run, not an exception: the run still writes its report with the day's figures, and exits
/// non-zero. At 100 million purchases a whole-store query outlasted its 300 s timeout and the load test exited
/// without a report, losing the day's figures (docs/performance.md, 2026-11-27).</summary>
public sealed class DayVerifierTests
{
    [Fact]
    public async Task A_verification_that_cannot_reach_the_database_fails_as_a_check_instead_of_throwing()
    {
        // Nothing listens on port 1: every query fails at once, as one past its timeout fails late.
        var options = new LoadOptions { Stores = 2, Database = "Server=127.0.0.1;Port=1;Database=supermarket;SslMode=None;User ID=verifier;Connection Timeout=2" };
        using var api = new HttpClient { BaseAddress = new Uri("http://127.0.0.1:1") };
        var verifier = new DayVerifier(options, api);

        var verified = await verifier.VerifyAsync(storedBefore: 0, ledgerBefore: 0, successful: 10, new SalesTally([1]),
            new HistorySample(1), untouched: new HashSet<int>(), retried: null);

        Assert.False(verified);
        var check = Assert.Single(verifier.Checks);
        Assert.False(check.Passed);
        Assert.StartsWith("the verification could not finish", check.Check, StringComparison.Ordinal);
    }
}
