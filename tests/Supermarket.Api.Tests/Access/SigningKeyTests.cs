using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Supermarket.Security;

namespace Supermarket.Api.Tests.Access;

/// <summary>A signing key the API cannot use stops it at start, naming the setting, instead of answering 500 to every
/// request that carries a credential.</summary>
public sealed class SigningKeyTests
{
    [Theory]
    [InlineData("not base64!")]
    [InlineData("c2hvcnQ=")] // "short": 5 bytes
    public void A_malformed_or_short_signing_key_stops_the_api_at_start(string key)
    {
        using var api = Api(key);

        var refused = Assert.ThrowsAny<OptionsValidationException>(() => api.Services.GetRequiredService<IOptions<AuthOptions>>().Value);
        Assert.Contains("Auth:SigningKey", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_key_of_32_random_bytes_or_more_is_taken()
    {
        var key = LocalCredentials.NewSigningKey();
        using var api = Api(key);

        Assert.Equal(key, api.Services.GetRequiredService<IOptions<AuthOptions>>().Value.SigningKey);
    }

    private static WebApplicationFactory<Program> Api(string signingKey) =>
        new WebApplicationFactory<Program>().WithWebHostBuilder(host => host
            .UseSetting("Broker:Username", "api")
            .UseSetting("Broker:Password", "secret")
            .UseSetting("Broker:Port", "1")
            .UseSetting("Auth:SigningKey", signingKey));
}
