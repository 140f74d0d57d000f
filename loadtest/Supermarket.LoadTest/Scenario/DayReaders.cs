using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// People reading while the day runs, each at a steady rate whatever the answers (an open model, so a slow answer
/// cannot slow the questions down): store managers and support staff reading purchase history
/// (<see cref="LoadOptions.HistoryQueriesPerSecond"/>: alternately one store's day and one customer's purchases on
/// that day, the first page of each), and analysts asking what sells (<see cref="LoadOptions.SalesQueriesPerSecond"/>:
/// in turn the top items at a store, the top stores for an item, and the top items at a store over the week ending on
/// the day). Each answer is timed, each kind apart; the figures go into the summary beside the POSTs'.
/// </summary>
public sealed class DayReaders(HttpClient http, LoadOptions options)
{
    public const string StoreDay = "purchases at a store";
    public const string CustomerPurchases = "purchases of a customer";
    public const string TopItems = "top items at a store";
    public const string TopStores = "top stores for an item";
    public const string TopItemsThisWeek = "top items at a store, a week";

    private readonly ConcurrentBag<(string Question, double AskedAtSeconds, double Milliseconds, int Status)> _answers = [];
    private long _begun;

    public Task RunAsync(CancellationToken stop)
    {
        _begun = Stopwatch.GetTimestamp();
        return Task.WhenAll(
            AskAtRateAsync(options.HistoryQueriesPerSecond, HistoryQuestion, new Random(options.Seed), stop),
            AskAtRateAsync(options.SalesQueriesPerSecond, SalesQuestion, new Random(options.Seed + 1), stop));
    }

    /// <summary>The figures of the questions asked after the warm-up, which the POSTs' figures leave out too.</summary>
    public IReadOnlyList<QuestionFigures> Figures(double warmUpSeconds) =>
        [.. _answers.Where(answer => answer.AskedAtSeconds >= warmUpSeconds).GroupBy(answer => answer.Question).OrderBy(group => group.Key, StringComparer.Ordinal).Select(group =>
        {
            var latencies = group.Select(answer => answer.Milliseconds).Order().ToArray();
            return new QuestionFigures(group.Key, latencies.Length, group.Count(answer => answer.Status != 200),
                RunSummary.Percentile(latencies, 0.50), RunSummary.Percentile(latencies, 0.99), RunSummary.Percentile(latencies, 0.999), latencies[^1]);
        })];

    private async Task AskAtRateAsync(int perSecond, Func<int, Random, Task> ask, Random random, CancellationToken stop)
    {
        if (perSecond == 0)
        {
            return;
        }

        var asked = new List<Task>();
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1.0 / perSecond));
        try
        {
            for (var n = 0; await timer.WaitForNextTickAsync(stop); n++)
            {
                asked.Add(ask(n, random));
            }
        }
        catch (OperationCanceledException)
        {
            // The day is over.
        }

        await Task.WhenAll(asked);
    }

    private Task HistoryQuestion(int n, Random random)
    {
        var store = random.Next(1, options.Stores + 1);
        var customer = (store * 1000) + random.Next(options.CustomersPerStore);
        // Each store's manager asks about that store's day and its customers, with a credential of their own.
        var reader = string.Create(CultureInfo.InvariantCulture, $"manager-{store}");
        return n % 2 == 0
            ? AskAsync(StoreDay, IssuedCredentials.HistoryRead(string.Create(CultureInfo.InvariantCulture, $"purchases/store/{store}?date={options.Date}"), reader, options.Credentials))
            : AskAsync(CustomerPurchases, IssuedCredentials.HistoryRead(string.Create(CultureInfo.InvariantCulture, $"purchases/customer/{customer}?from={options.Date}&to={options.Date}"), reader, options.Credentials));
    }

    private Task SalesQuestion(int n, Random random)
    {
        var day = DateOnly.ParseExact(options.Date, "yyyyMMdd", CultureInfo.InvariantCulture);
        var (question, path) = (n % 3) switch
        {
            0 => (TopItems, string.Create(CultureInfo.InvariantCulture, $"items/store/{random.Next(1, options.Stores + 1)}")),
            1 => (TopStores, string.Create(CultureInfo.InvariantCulture, $"items/top5/{random.Next(1, options.MaxItemId + 1)}")),
            _ => (TopItemsThisWeek, string.Create(CultureInfo.InvariantCulture, $"items/store/{random.Next(1, options.Stores + 1)}?from={day.AddDays(-6):yyyyMMdd}&to={day:yyyyMMdd}")),
        };
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.Authorization = IssuedCredentials.ForSalesQuestions(options);
        return AskAsync(question, request);
    }

    private async Task AskAsync(string question, HttpRequestMessage request)
    {
        var started = Stopwatch.GetTimestamp();
        int status;
        try
        {
            using (request)
            using (var response = await http.SendAsync(request, HttpCompletionOption.ResponseContentRead))
            {
                status = (int)response.StatusCode;
            }
        }
        catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException)
        {
            status = 0;
        }

        _answers.Add((question, Stopwatch.GetElapsedTime(_begun, started).TotalSeconds, Stopwatch.GetElapsedTime(started).TotalMilliseconds, status));
    }
}
