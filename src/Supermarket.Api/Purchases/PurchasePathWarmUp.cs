using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using MassTransit.Serialization;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Options;
using Supermarket.Api.Access;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Purchases;
using Supermarket.Security;
using Supermarket.ServiceDefaults.WarmUp;

namespace Supermarket.Api.Purchases;

/// <summary>Posts itself over loopback purchases validation refuses at their last line: the POST path compiled, nothing
/// reaching the broker; then serialises groups and writes 201s (docs/architecture.md, "A warm start").</summary>
public sealed class PurchasePathWarmUp(OwnPortClient ownPort, IServiceProvider services, IOptions<CatalogOptions> catalog)
    : IStartupWarmUp
{
    /// <summary>Long enough for the hot methods' second compilation (tiered, after 30 calls) to be under way.</summary>
    private static readonly TimeSpan Duration = TimeSpan.FromSeconds(2);

    private const int Concurrent = 8;

    private const int GroupPurchases = 100;
    private const int AnswerRounds = 50;

    private const string Path = "purchase/1/customer/1000/date/20200101";

    public async Task RunAsync(CancellationToken cancellation)
    {
        using var client = ownPort.Create(auth => LocalCredentials.ForTill(auth, store: 1, Duration + TimeSpan.FromMinutes(1)));
        if (client is null)
        {
            return;
        }

        await PostRefusedPurchasesAsync(client, cancellation);
        await WriteRecordedAnswersAsync();
    }

    private async Task PostRefusedPurchasesAsync(HttpClient client, CancellationToken cancellation)
    {
        var body = RefusedBody(catalog.Value);
        var until = Stopwatch.GetTimestamp() + (long)(Duration.TotalSeconds * Stopwatch.Frequency);
        await Task.WhenAll(Enumerable.Range(0, Concurrent).Select(async _ =>
        {
            while (Stopwatch.GetTimestamp() < until)
            {
                using var content = new ByteArrayContent(body) { Headers = { ContentType = new MediaTypeHeaderValue("application/json") } };
                using var response = await client.PostAsync(Path, content, cancellation);
                // A credential from an identity provider cannot be made here: its 401s warm the path up to the check.
                if (response.StatusCode is not (HttpStatusCode.BadRequest or HttpStatusCode.Unauthorized))
                {
                    throw new InvalidOperationException($"A warm-up purchase was answered {(int)response.StatusCode}, not 400.");
                }
            }
        }));
    }

    private async Task WriteRecordedAnswersAsync()
    {
        var group = new PurchaseBatchRecorded([.. Enumerable.Range(1, GroupPurchases).Select(item =>
            new PurchaseRecorded(Guid.CreateVersion7(), 1, 1000, new DateOnly(2020, 1, 1), [new PurchaseLine(item, 1)], DateTimeOffset.UtcNow))]);
        for (var round = 0; round < AnswerRounds; round++)
        {
            JsonSerializer.SerializeToUtf8Bytes<object>(group, SystemTextJsonMessageSerializer.Options);
            foreach (var purchase in group.Purchases)
            {
                var answered = new DefaultHttpContext { RequestServices = services, Response = { Body = Stream.Null } };
                await PurchaseAccepted.Created(purchase.PurchaseId).ExecuteAsync(answered);
            }
        }
    }

    /// <summary>A till's usual purchase of ten lines, the last of an item past the catalog.</summary>
    private static byte[] RefusedBody(CatalogOptions catalog)
    {
        var items = Enumerable.Range(1, 10).Select(line => line < 10 ? line * 97 % catalog.MaxItemId + 1 : catalog.MaxItemId + 1);
        return Encoding.UTF8.GetBytes("{\"items\":[" + string.Join(",", items.Select(item =>
            string.Create(CultureInfo.InvariantCulture, $"{{\"ItemID\":\"{item}\",\"numberOfItems:\":1}}"))) + "]}");
    }
}
