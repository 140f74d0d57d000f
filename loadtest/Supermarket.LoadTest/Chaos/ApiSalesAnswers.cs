using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json;
using Supermarket.Contracts.Sales;

namespace Supermarket.LoadTest.Chaos;

/// <summary>GET /items/store/{id} on the system under test, as the course's clients ask it.</summary>
public sealed class ApiSalesAnswers(HttpClient api) : ISalesAnswers
{
    public async Task<SalesReply> AskAsync(int store, CancellationToken cancellationToken)
    {
        try
        {
            using var response = await api.GetAsync($"items/store/{store}", cancellationToken);
            if (!response.IsSuccessStatusCode || !response.Headers.TryGetValues(ISalesAnswer.Header, out var values)
                || !long.TryParse(values.First(), CultureInfo.InvariantCulture, out var countedThrough))
            {
                return SalesReply.Unanswered((int)response.StatusCode);
            }

            var answer = await response.Content.ReadFromJsonAsync<JsonElement>(cancellationToken);
            var units = answer.GetProperty("stores").EnumerateArray().Sum(item => item.GetProperty("numberOfItems").GetInt64());
            return SalesReply.Answered(new SalesAnswerSeen(store, countedThrough, units));
        }
        catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException && !cancellationToken.IsCancellationRequested)
        {
            return SalesReply.Unanswered(SalesReply.NoResponse);
        }
    }
}
