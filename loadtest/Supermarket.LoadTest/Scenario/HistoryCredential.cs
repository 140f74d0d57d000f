using System.Collections.Concurrent;
using System.Net.Http.Headers;
using Supermarket.Security;

namespace Supermarket.LoadTest.Scenario;

/// <summary>
/// The analysts' credentials the load test reads purchase history with (the API asks for one on every history read,
/// and limits each caller's reads a minute), issued with the <c>Auth__SigningKey</c> that ./run.sh gives the API and
/// the load test alike: one per reader, as each store's manager would have their own. Sent with history reads only:
/// the course's POSTs stay anonymous, as its clients send them. Without a key none is sent, and a client whose own
/// default headers carry one (the tests') uses that.
/// </summary>
public static class HistoryCredential
{
    private static readonly AuthOptions? Auth = AuthOptions.FromEnvironment() is { SigningKey.Length: > 0 } auth ? auth : null;
    private static readonly ConcurrentDictionary<string, AuthenticationHeaderValue> ByReader = new();

    public static HttpRequestMessage Get(string path, string reader)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        if (Auth is { } auth)
        {
            request.Headers.Authorization = ByReader.GetOrAdd(reader,
                name => new AuthenticationHeaderValue("Bearer", LocalCredentials.ForAnalyst(auth, name, TimeSpan.FromDays(1))));
        }

        return request;
    }
}
