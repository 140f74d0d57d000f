using System.Globalization;

namespace Supermarket.LoadTest.Reporting;

/// <summary>
/// The broker messages the API published, from its own metric of purchases per message
/// (<c>supermarket.publish.batch.size</c> on its <c>/metrics</c>): the broker's cost is per message, so how full they
/// are is what group commit is for. Read before and after a run; the run's figures are the difference.
/// </summary>
public sealed record PublishedMessages(long Messages, long Purchases, long SinglePurchase)
{
    private const string Metric = "supermarket_publish_batch_size";

    public double? PurchasesPerMessage => Messages > 0 ? (double)Purchases / Messages : null;

    /// <summary>The share of messages that carried one purchase, 0 to 1.</summary>
    public double? SinglePurchaseShare => Messages > 0 ? (double)SinglePurchase / Messages : null;

    public PublishedMessages Since(PublishedMessages before) =>
        new(Messages - before.Messages, Purchases - before.Purchases, SinglePurchase - before.SinglePurchase);

    /// <summary>From the API's management port; null when it does not answer (a run against another system).</summary>
    public static async Task<PublishedMessages?> ReadAsync(Uri? apiManagement)
    {
        if (apiManagement is null)
        {
            return null;
        }

        using var http = new HttpClient { BaseAddress = apiManagement, Timeout = TimeSpan.FromSeconds(5) };
        try
        {
            return Parse(await http.GetStringAsync("metrics"));
        }
        catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException)
        {
            return null;
        }
    }

    /// <summary>Reads Prometheus' text format: the histogram's count, sum and its bucket of one purchase, summed over
    /// every label set (each outcome).</summary>
    public static PublishedMessages Parse(string exposition)
    {
        double messages = 0, purchases = 0, single = 0;
        foreach (var line in exposition.AsSpan().EnumerateLines())
        {
            if (!line.StartsWith(Metric) || line.StartsWith("#"))
            {
                continue;
            }

            var nameEnd = line.IndexOfAny('{', ' ');
            var valueStart = line.LastIndexOf('}') is var labelsEnd and >= 0 ? labelsEnd + 1 : nameEnd;
            var value = line[valueStart..].Trim();
            var space = value.IndexOf(' ');
            var number = double.Parse(space < 0 ? value : value[..space], CultureInfo.InvariantCulture);
            switch (line[Metric.Length..nameEnd])
            {
                case "_count":
                    messages += number;
                    break;
                case "_sum":
                    purchases += number;
                    break;
                case "_bucket" when line.Contains("le=\"1\"", StringComparison.Ordinal):
                    single += number;
                    break;
            }
        }

        return new PublishedMessages((long)messages, (long)purchases, (long)single);
    }
}
