using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using Supermarket.LoadTest.Reporting;

namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// Store managers and support staff reading purchase history while the day runs: at a steady rate, whatever the
/// answers (an open model, so a slow answer cannot slow the questions down), alternately one store's day and one
/// customer's purchases on that day, the first page of each. Each answer is timed; the figures go into the summary
/// beside the POSTs'.
/// </summary>
public sealed class HistoryReaders(HttpClient http, LoadOptions options)
{
    private const string StoreDay = "purchases at a store";
    private const string CustomerPurchases = "purchases of a customer";

    private readonly ConcurrentBag<(string Question, double Milliseconds, int Status)> _answers = [];
    private readonly Random _random = new(options.Seed);

    public async Task RunAsync(CancellationToken stop)
    {
        if (options.HistoryQueriesPerSecond == 0)
        {
            return;
        }

        var asked = new List<Task>();
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1.0 / options.HistoryQueriesPerSecond));
        try
        {
            for (var n = 0; await timer.WaitForNextTickAsync(stop); n++)
            {
                var store = _random.Next(1, options.Stores + 1);
                var customer = (store * 1000) + _random.Next(options.CustomersPerStore);
                // Each store's manager asks about that store's day and its customers, with a credential of their own.
                var reader = string.Create(CultureInfo.InvariantCulture, $"manager-{store}");
                asked.Add(n % 2 == 0
                    ? AskAsync(StoreDay, string.Create(CultureInfo.InvariantCulture, $"purchases/store/{store}?date={options.Date}"), reader)
                    : AskAsync(CustomerPurchases, string.Create(CultureInfo.InvariantCulture, $"purchases/customer/{customer}?from={options.Date}&to={options.Date}"), reader));
            }
        }
        catch (OperationCanceledException)
        {
            // The day is over.
        }

        await Task.WhenAll(asked);
    }

    public IReadOnlyList<HistoryQueryFigures> Figures() =>
        [.. _answers.GroupBy(answer => answer.Question).OrderBy(group => group.Key, StringComparer.Ordinal).Select(group =>
        {
            var latencies = group.Select(answer => answer.Milliseconds).Order().ToArray();
            return new HistoryQueryFigures(group.Key, latencies.Length, group.Count(answer => answer.Status != 200),
                RunSummary.Percentile(latencies, 0.50), RunSummary.Percentile(latencies, 0.99), latencies[^1]);
        })];

    private async Task AskAsync(string question, string path, string reader)
    {
        var started = Stopwatch.GetTimestamp();
        int status;
        try
        {
            using var request = IssuedCredentials.HistoryRead(path, reader, options.Credentials);
            using var response = await http.SendAsync(request, HttpCompletionOption.ResponseContentRead);
            status = (int)response.StatusCode;
        }
        catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException)
        {
            status = 0;
        }

        _answers.Add((question, Stopwatch.GetElapsedTime(started).TotalMilliseconds, status));
    }
}
