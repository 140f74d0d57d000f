using System.Globalization;

namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// Analysts' live pages held open while the day runs (<see cref="LoadOptions.LivePages"/>): each reads the stream the
/// page at / reads (GET /live/sales) until the day ends, on a connection of its own as a browser's, the pages spread
/// over ten stores and ten items so that pages share questions as a chain's analysts would. Counts the events they
/// received and the pages whose stream failed or ended before the day did.
/// </summary>
public sealed class LivePages(LoadOptions options)
{
    private const int StoresWatched = 10;

    private long _events;
    private int _failed;

    public Task RunAsync(CancellationToken stop) =>
        Task.WhenAll(Enumerable.Range(0, options.LivePages).Select(page => HoldOpenAsync(page, stop)));

    /// <summary>What the pages saw, for the run's console and report; null when none were open.</summary>
    public string? Describe() => options.LivePages == 0
        ? null
        : string.Create(CultureInfo.InvariantCulture,
            $"live pages: {options.LivePages} held open over {Math.Min(StoresWatched, options.Stores)} stores, {Interlocked.Read(ref _events):N0} events received, {_failed} failed");

    private async Task HoldOpenAsync(int page, CancellationToken stop)
    {
        var store = 1 + (page % Math.Min(StoresWatched, options.Stores));
        var item = 1 + (page % StoresWatched);
        // A client of its own: the day's client bounds its connections, and a page holds one for the whole day.
        using var http = new HttpClient { BaseAddress = options.Url, Timeout = Timeout.InfiniteTimeSpan };
        using var request = new HttpRequestMessage(HttpMethod.Get, string.Create(CultureInfo.InvariantCulture, $"live/sales?store={store}&item={item}"));
        request.Headers.Authorization = IssuedCredentials.ForSalesQuestions(options);
        try
        {
            using var response = await http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, stop);
            if (!response.IsSuccessStatusCode)
            {
                Interlocked.Increment(ref _failed);
                return;
            }

            using var events = new StreamReader(await response.Content.ReadAsStreamAsync(stop));
            while (await events.ReadLineAsync(stop) is { } line)
            {
                if (line.StartsWith("event:", StringComparison.Ordinal))
                {
                    Interlocked.Increment(ref _events);
                }
            }

            Interlocked.Increment(ref _failed);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The day is over.
        }
        catch (Exception exception) when (exception is HttpRequestException or IOException)
        {
            Interlocked.Increment(ref _failed);
        }
    }
}
