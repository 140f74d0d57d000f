using System.Net;

namespace Supermarket.LoadTest.Tests;

/// <summary>An API that answers every purchase with 201 at once, for tests of how the load test sends, not of what
/// the system does with it.</summary>
internal sealed class CountingHandler : HttpMessageHandler
{
    private int _requests;

    public int Requests => _requests;

    protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _requests);
        return Task.FromResult(new HttpResponseMessage(HttpStatusCode.Created));
    }
}
