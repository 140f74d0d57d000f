using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.Options;

namespace Supermarket.Api.Tests.Observability;

/// <summary>The telemetry settings decide what is registered (whether anything is traced, and where it goes), so they
/// are read while the services are registered; an invalid one stops the service there as every other invalid setting
/// does, naming it, not with a sampler's argument exception.</summary>
public sealed class TelemetrySettingsTests
{
    [Fact]
    public void A_trace_sample_ratio_outside_0_to_1_stops_the_api_naming_the_setting()
    {
        using var api = new WebApplicationFactory<Program>().WithWebHostBuilder(host => host
            .UseSetting("Broker:Username", "api")
            .UseSetting("Broker:Password", "secret")
            .UseSetting("Broker:Port", "1")
            .UseSetting("Telemetry:OtlpEndpoint", "http://127.0.0.1:1")
            .UseSetting("Telemetry:TraceSampleRatio", "1.5"));

        var refused = Assert.ThrowsAny<OptionsValidationException>(() => api.Services);
        Assert.Contains("TraceSampleRatio", refused.Message, StringComparison.Ordinal);
    }
}
