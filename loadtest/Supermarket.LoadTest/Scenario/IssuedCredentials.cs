using System.Collections.Concurrent;
using System.Net.Http.Headers;
using Supermarket.Security;

namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// The credentials the load test sends, issued with <see cref="LoadOptions.Credentials"/> (by default the
/// <c>Auth__SigningKey</c> that ./run.sh gives the API and the load test alike; README, "Security"), one per person, as each would have their own: an analyst's for every history
/// read (the API asks for one, and limits each caller's reads a minute), and, with <c>--till-credentials</c>, a till's
/// for each store's POSTs (for an API with Auth:RequireForCourseApi). Without a key none is sent, and a client whose
/// own default headers carry one (the tests') uses that.
/// </summary>
public static class IssuedCredentials
{
    private static readonly TimeSpan Lifetime = TimeSpan.FromDays(1);
    private static readonly ConcurrentDictionary<string, AuthenticationHeaderValue> Issued = new();

    /// <summary>A GET of purchase history, as the analyst <paramref name="reader"/>.</summary>
    public static HttpRequestMessage HistoryRead(string path, string reader, AuthOptions? auth)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        if (auth is not null)
        {
            request.Headers.Authorization = Issued.GetOrAdd($"{auth.SigningKey} analyst {reader}",
                _ => new AuthenticationHeaderValue("Bearer", LocalCredentials.ForAnalyst(auth, reader, Lifetime)));
        }

        return request;
    }

    /// <summary>The store's till's credential; null without a key.</summary>
    public static AuthenticationHeaderValue? Till(int store, AuthOptions? auth) =>
        auth is not null
            ? Issued.GetOrAdd($"{auth.SigningKey} till {store}", _ => new AuthenticationHeaderValue("Bearer", LocalCredentials.ForTill(auth, store, Lifetime)))
            : null;
}
