extern alias LoadTest;

using LoadTest::Supermarket.LoadTest;
using LoadTest::Supermarket.LoadTest.Reporting;
using LoadTest::Supermarket.LoadTest.Scenario;
using LoadTest::Supermarket.LoadTest.Verification;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.LoadTest;

/// <summary>The load test's own scenario and verification, on a tiny day, against the whole system.</summary>
[Collection(nameof(SystemCollection))]
public sealed class TinyDayTests
{
    [Theory]
    [InlineData(false, "20200606")]
    [InlineData(true, "20200607")]
    public async Task A_tiny_day_gets_only_201s_and_every_purchase_is_in_MySQL_and_the_matrix(bool tillsSignIn, string date)
    {
        var options = LoadOptions.Parse(["--stores", "6", "--purchases-per-hour", "4", "--date", date,
            "--max-item-id", "50", "--database", TestSettings.VerifierConnectionString(), "--verify-timeout", "60"]) with
        {
            // With the course's API closed, each store's till signs its POSTs in; analysts ask the sales questions.
            TillCredentials = tillsSignIn,
            Credentials = TestSettings.Auth,
        };
        var settings = TestSettings.For();
        settings["Auth:RequireForCourseApi"] = tillsSignIn ? "true" : "false";
        await using var factory = new SupermarketSystem.ApiFactory(settings);
        using var api = factory.CreateClient();
        // What the load test's own client sends by default, not the tests' analyst.
        api.DefaultRequestHeaders.Authorization = IssuedCredentials.ForSalesQuestions(options);
        var verifier = new DayVerifier(options, api);
        int[] sampled = [1, 4, 6];
        var storedBefore = await verifier.CountStoredAsync();
        var ledgerBefore = await verifier.LedgerSeqAsync();
        var untouched = await verifier.UntouchedStoresAsync(sampled);
        var log = new RequestLog(options.TotalPurchases);
        var tally = new SalesTally(sampled);
        var history = new HistorySample(1);

        await new ChainDay(options, new PurchaseSender(api, log, tally, history, options, new PurchaseOutcomes())).RunAsync();

        Assert.Equal(6 * 9 * 4, log.Count);
        Assert.Equal(0, log.Failures);
        var stored = await Eventually.UntilAsync(verifier.CountStoredAsync, count => count >= storedBefore + log.Count);
        Assert.Equal(storedBefore + log.Count, stored);
        Assert.True(await verifier.VerifyAsync(storedBefore, ledgerBefore, log.Count, tally, history, untouched, retried: null), "the load test's verification failed; see the test output");
        Assert.NotNull(verifier.Lag.Counted);
        Assert.NotEmpty(history.Acknowledged);
        Assert.NotNull(history.Customer);
    }
}
