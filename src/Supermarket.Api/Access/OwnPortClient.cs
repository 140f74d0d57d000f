using System.Globalization;
using System.Net.Http.Headers;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.Options;
using Supermarket.Security;
using Supermarket.ServiceDefaults.Management;

namespace Supermarket.Api.Access;

/// <summary>A client of this API's own public port over loopback, for its warm-ups, with a local credential.</summary>
public sealed class OwnPortClient(IServer server, IOptions<ManagementOptions> management, IOptions<AuthOptions> auth)
{
    /// <summary>Null on a server with no address to post to (the tests' in-memory one).</summary>
    public HttpClient? Create(Func<AuthOptions, string> credential)
    {
        if (PublicAddress() is not { } address)
        {
            return null;
        }

        var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = address };
        if (auth.Value is { RequireForCourseApi: true, SigningKey.Length: > 0 })
        {
            client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", credential(auth.Value));
        }

        return client;
    }

    private Uri? PublicAddress()
    {
        var listened = server.Features.Get<IServerAddressesFeature>()?.Addresses.Select(BindingAddress.Parse)
            .FirstOrDefault(binding => binding.Scheme == Uri.UriSchemeHttp && binding.Port > 0 && binding.Port != management.Value.Port);
        if (listened is null)
        {
            return null;
        }

        var host = listened.Host is "+" or "*" or "0.0.0.0" or "[::]" or "localhost" ? "127.0.0.1" : listened.Host;
        return new Uri(string.Create(CultureInfo.InvariantCulture, $"http://{host}:{listened.Port}/"));
    }
}
