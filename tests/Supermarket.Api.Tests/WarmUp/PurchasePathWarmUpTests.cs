using System.Net;
using MassTransit.Testing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.TestHost;
using Supermarket.Api.Tests.Purchases;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Api.Tests.WarmUp;

/// <summary>The API on Kestrel, tills' credentials required: before /health/ready passes it has posted itself
/// purchases through its own port, each refused, and published nothing.</summary>
public sealed class PurchasePathWarmUpTests
{
    [Fact]
    public async Task The_API_is_ready_only_after_posting_itself_purchases_that_were_all_refused_and_none_published()
    {
        var answers = new PurchaseAnswers();
        await using var ingest = new IngestApi(claimAnswer: null);
        await using var api = ingest.WithWebHostBuilder(host => host
            .UseSetting("Urls", "http://127.0.0.1:0")
            .UseSetting("Management:Url", "")
            .ConfigureTestServices(services => services.AddSingleton<IStartupFilter>(answers)));
        api.UseKestrel();
        api.StartServer();
        using var client = api.CreateClient();

        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(60);
        while ((await client.GetAsync("/health/ready")).StatusCode != HttpStatusCode.OK && DateTime.UtcNow < deadline)
        {
            Assert.True(answers.Other == 0, "a warm-up purchase was answered otherwise than 400");
            await Task.Delay(50);
        }

        Assert.True(DateTime.UtcNow < deadline, "the API was not ready within 60 s");
        Assert.True(answers.Refused > 100, $"the API said ready after {answers.Refused} refused purchases of its own");
        Assert.Equal(0, answers.Other);
        Assert.False(await api.Services.GetRequiredService<ITestHarness>().Published.Any<PurchaseBatchRecorded>());
    }

    /// <summary>Counts the answers to POST /purchase on this API's own pipeline.</summary>
    private sealed class PurchaseAnswers : IStartupFilter
    {
        private int _refused;
        private int _other;

        public int Refused => Volatile.Read(ref _refused);

        public int Other => Volatile.Read(ref _other);

        public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
        {
            app.Use(async (context, inner) =>
            {
                await inner();
                if (context.Request.Path.StartsWithSegments("/purchase"))
                {
                    Interlocked.Increment(ref context.Response.StatusCode == StatusCodes.Status400BadRequest ? ref _refused : ref _other);
                }
            });
            next(app);
        };
    }
}
