using System.Globalization;
using Supermarket.Contracts.Sales;

namespace Supermarket.LoadTest.Live;

/// <summary>How far through the sales ledger the matrix has counted: the header every sales answer carries.</summary>
public static class SalesCountedThrough
{
    /// <summary>The last ledger entry counted, or null when no answer said (the API or the aggregator away).</summary>
    public static async Task<long?> ReadAsync(HttpClient api)
    {
        try
        {
            using var response = await api.GetAsync("items/store/1");
            return response.IsSuccessStatusCode && response.Headers.TryGetValues(ISalesAnswer.Header, out var values)
                && long.TryParse(values.First(), CultureInfo.InvariantCulture, out var seq) ? seq : null;
        }
        catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException)
        {
            return null;
        }
    }
}
