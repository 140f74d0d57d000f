using System.Net.Http.Headers;
using MassTransit;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Supermarket.Contracts.Purchases;
using Supermarket.Security;

namespace Supermarket.Api.Tests.Purchases;

/// <summary>
/// The API as Program.cs builds it, tills' credentials required, with MassTransit's in-memory test harness in place of
/// RabbitMQ (the pattern of MassTransit's WebApplicationFactory sample): every registration is production's, only the
/// transport differs. The writer's side of an Idempotency-Key claim is a handler giving the answer a test chooses, or
/// none at all (the claim is then never answered).
/// </summary>
public sealed class IngestApi(IdempotencyKeyClaimed? claimAnswer, Action<IPublishPipeConfigurator>? configurePublish = null)
    : WebApplicationFactory<Program>
{
    /// <summary>Short, so that a test of an unanswered claim or an unconfirmed publish ends soon.</summary>
    public static readonly TimeSpan RequestDeadline = TimeSpan.FromSeconds(1);

    private readonly AuthOptions _auth = new() { SigningKey = LocalCredentials.NewSigningKey(), RequireForCourseApi = true };

    public const string Route = "/purchase/7/customer/42/date/20210314";

    public const string Body = """{"items":[{"ItemID":"47410","numberOfItems:":2}]}""";

    /// <summary>A client holding a till's credential for <paramref name="store"/>, or none.</summary>
    public HttpClient Till(int? store = 7)
    {
        var client = CreateClient();
        if (store is { } id)
        {
            client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", LocalCredentials.ForTill(_auth, id, TimeSpan.FromMinutes(5)));
        }

        return client;
    }

    public static HttpRequestMessage Post(string body = Body, string? idempotencyKey = null, string route = Route)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, route) { Content = new StringContent(body, System.Text.Encoding.UTF8, "application/json") };
        if (idempotencyKey is not null)
        {
            request.Headers.Add("Idempotency-Key", idempotencyKey);
        }

        return request;
    }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder
            .UseSetting("Broker:Username", "api")
            .UseSetting("Broker:Password", "unused")
            .UseSetting("Auth:SigningKey", _auth.SigningKey)
            .UseSetting("Auth:RequireForCourseApi", "true")
            .UseSetting("Ingest:RequestDeadline", RequestDeadline.ToString())
            .ConfigureTestServices(services => services.AddMassTransitTestHarness(bus =>
            {
                if (claimAnswer is not null)
                {
                    bus.AddHandler<ClaimIdempotencyKey>(context => context.RespondAsync(claimAnswer));
                }

                bus.UsingInMemory((context, memory) =>
                {
                    if (configurePublish is not null)
                    {
                        memory.ConfigurePublish(configurePublish);
                    }

                    memory.ConfigureEndpoints(context);
                });
            }));
    }
}
