using System.Net;
using Supermarket.Api.Access;
using Supermarket.Security;
using Supermarket.ServiceDefaults.WarmUp;

namespace Supermarket.Api.Insights;

/// <summary>
/// Before the API says ready it asks itself, over loopback, a sales question: the bus's first send, its confirm and a
/// reply consumed are what the first purchase's publish would otherwise compile (129 ms instead of 3-7 ms after a
/// start). Read-only, so it leaves no trace; while the shards are still starting, it asks again until Patience ends.
/// </summary>
public sealed class SalesQuestionWarmUp(OwnPortClient ownPort) : IStartupWarmUp
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(5);

    /// <summary>Answered questions, enough for the send path's second (tiered) compilation to be under way.</summary>
    public const int AnsweredRounds = 40;

    public async Task RunAsync(CancellationToken cancellation)
    {
        using var client = ownPort.Create(auth => LocalCredentials.ForAnalyst(auth, "warm-up", Patience + TimeSpan.FromMinutes(1)));
        if (client is null)
        {
            return;
        }

        using var patience = CancellationTokenSource.CreateLinkedTokenSource(cancellation);
        patience.CancelAfter(Patience);
        for (var answered = 0; answered < AnsweredRounds && !patience.IsCancellationRequested;)
        {
            try
            {
                using var response = await client.GetAsync("items/store/1", patience.Token);
                if (response.StatusCode == HttpStatusCode.Unauthorized)
                {
                    return;
                }

                answered += response.IsSuccessStatusCode ? 1 : 0;
            }
            catch (OperationCanceledException) when (!cancellation.IsCancellationRequested)
            {
                // Patience spent: the shards were not up in time, the first purchases pay instead.
            }
        }
    }
}
