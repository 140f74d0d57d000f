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

        // An aggregator behind the ledger answers the first question with less than MySQL holds: the verification
        // fails on that answer, instead of asking again until one agrees.
        using var lagging = factory.CreateDefaultClient(new FirstStoreAnswerEmpty());
        lagging.DefaultRequestHeaders.Authorization = api.DefaultRequestHeaders.Authorization;
        var fooled = new DayVerifier(options, lagging);
        Assert.False(await fooled.VerifyAsync(storedBefore, ledgerBefore, log.Count, tally, history, untouched, retried: null));
        Assert.Contains(fooled.Checks, check => !check.Passed && check.Check.StartsWith("GET /items/store/4, asked once", StringComparison.Ordinal));
    }

    /// <summary>Answers the first question about store 4's top items as an aggregator that has counted nothing would
    /// (store 1's are how far the matrix has counted: SalesCountedThrough).</summary>
    private sealed class FirstStoreAnswerEmpty : DelegatingHandler
    {
        private int _answered;

        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken) =>
            request.RequestUri!.AbsolutePath == "/items/store/4" && Interlocked.Exchange(ref _answered, 1) == 0
                ? Task.FromResult(new HttpResponseMessage(System.Net.HttpStatusCode.OK) { Content = new StringContent("""{"stores":[]}""") })
                : base.SendAsync(request, cancellationToken);
    }

    /// <summary>Past --whole-history-checks-up-to the verification reads what the day touched: each answer against the
    /// one before the day plus the day's ledger entries, and the day's entries against what the run sent. It passes on
    /// a true day, and fails on an answer before the day one unit off, and on a tally one purchase off.</summary>
    [Fact]
    public async Task A_day_verified_by_what_it_touched_passes_and_catches_a_count_one_unit_off()
    {
        // Every history counts as long (InnoDB's estimate of a small table may be 0).
        var options = LoadOptions.Parse(["--stores", "6", "--purchases-per-hour", "4", "--date", "20200608",
            "--max-item-id", "50", "--database", TestSettings.VerifierConnectionString(), "--verify-timeout", "60"]) with
        {
            Credentials = TestSettings.Auth,
            WholeHistoryChecksUpTo = -1,
        };
        await using var factory = new SupermarketSystem.ApiFactory(TestSettings.For());
        using var api = factory.CreateClient();
        api.DefaultRequestHeaders.Authorization = IssuedCredentials.ForSalesQuestions(options);
        var verifier = new DayVerifier(options, api);
        int[] sampled = [1, 4, 6];
        var storedBefore = await verifier.CountStoredAsync();
        var ledgerBefore = await verifier.LedgerSeqAsync();
        var untouched = await verifier.UntouchedStoresAsync(sampled);
        var before = await verifier.AnswersBeforeTheDayAsync(sampled);
        Assert.NotNull(before);
        var log = new RequestLog(options.TotalPurchases);
        var tally = new SalesTally(sampled);
        var history = new HistorySample(1);

        await new ChainDay(options, new PurchaseSender(api, log, tally, history, options, new PurchaseOutcomes())).RunAsync();

        Assert.Equal(0, log.Failures);
        Assert.True(await verifier.VerifyAsync(storedBefore, ledgerBefore, log.Count, tally, history, untouched, retried: null, answersBefore: before),
            "the load test's verification failed; see the test output");
        Assert.Contains(verifier.Checks, check => check.Check.StartsWith("the day's ledger entries at store 4", StringComparison.Ordinal));
        Assert.Contains(verifier.Checks, check => check.Check.StartsWith("GET /items/store/4, asked once, = its answer before the day", StringComparison.Ordinal));

        // The answer before the day one unit short at store 4: its answer now looks one unit too many.
        var (item, units) = before.TopItemsAtStore[4].Count > 0 ? before.TopItemsAtStore[4][0] : (1, 0);
        var offByOne = before with
        {
            TopItemsAtStore = new Dictionary<int, IReadOnlyList<(int Id, long Units)>>(before.TopItemsAtStore) { [4] = [(item, units + 1), .. before.TopItemsAtStore[4].Skip(1)] },
        };
        var fooled = new DayVerifier(options with { VerifyTimeout = TimeSpan.FromSeconds(2) }, api);
        Assert.False(await fooled.VerifyAsync(storedBefore, ledgerBefore, log.Count, tally, history, untouched, retried: null, answersBefore: offByOne));
        Assert.Contains(fooled.Checks, check => !check.Passed && check.Check.StartsWith("GET /items/store/4", StringComparison.Ordinal));

        // A purchase the run did not send, in its tally: the day's ledger entries no longer match it.
        tally.Add(new PlannedPurchase(6, 6000, "/purchases", [], [item], null, Guid.NewGuid()));
        var miscounted = new DayVerifier(options with { VerifyTimeout = TimeSpan.FromSeconds(2) }, api);
        Assert.False(await miscounted.VerifyAsync(storedBefore, ledgerBefore, log.Count, tally, history, untouched, retried: null, answersBefore: before));
        Assert.Contains(miscounted.Checks, check => !check.Passed && check.Check.StartsWith("the day's ledger entries at store 6", StringComparison.Ordinal));
    }
}
