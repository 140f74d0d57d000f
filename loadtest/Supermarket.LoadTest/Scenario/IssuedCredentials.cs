using System.Collections.Concurrent;
using System.Net.Http.Headers;
using Supermarket.Security;

namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// The credentials the load test sends, issued with <see cref="LoadOptions.Credentials"/> (by default the
/// <c>Auth__SigningKey</c> that ./run.sh gives the API and the load test alike; docs/security.md), one per person, as each would have their own: an analyst's for every history
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
        if (Analyst(reader, auth) is { } credential)
        {
            request.Headers.Authorization = credential;
        }

        return request;
    }

    /// <summary>What the load test's client sends by default: with the course's API closed (<c>--till-credentials</c>)
    /// its sales questions need an analyst too, the live dashboard's and the verification's (each POST carries its
    /// till's credential instead); open, nothing, as the course's clients send.</summary>
    public static AuthenticationHeaderValue? ForSalesQuestions(LoadOptions options) =>
        options.TillCredentials ? Analyst("loadtest", options.Credentials) : null;

    /// <summary>An analyst's credential; null without a key.</summary>
    private static AuthenticationHeaderValue? Analyst(string name, AuthOptions? auth) =>
        auth is not null
            ? Issued.GetOrAdd($"{auth.SigningKey} analyst {name}", _ => new AuthenticationHeaderValue("Bearer", LocalCredentials.ForAnalyst(auth, name, Lifetime)))
            : null;

    /// <summary>The store's till's credential; null without a key.</summary>
    public static AuthenticationHeaderValue? Till(int store, AuthOptions? auth) =>
        auth is not null
            ? Issued.GetOrAdd($"{auth.SigningKey} till {store}", _ => new AuthenticationHeaderValue("Bearer", LocalCredentials.ForTill(auth, store, Lifetime)))
            : null;
}
