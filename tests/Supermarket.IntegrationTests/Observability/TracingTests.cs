extern alias Writer;

using System.Diagnostics;
using System.Net;
using System.Text;
using Writer::Supermarket.PurchasesWriter;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Observability;

/// <summary>With Telemetry:OtlpEndpoint set, one purchase is one trace: the till's POST, the publish to RabbitMQ, and
/// the writer's consume of it on the other side of the broker, exported over OTLP to a receiver the test owns.</summary>
[Collection(nameof(SystemCollection))]
public sealed class TracingTests(SupermarketSystem system)
{
    [Fact]
    public async Task One_purchase_is_one_trace_from_its_POST_through_the_broker_to_the_writer()
    {
        await using var receiver = await OtlpReceiver.StartAsync();
        var settings = TestSettings.For();
        settings["Telemetry:OtlpEndpoint"] = receiver.Url.ToString();
        settings["Telemetry:OtlpProtocol"] = "HttpProtobuf";
        // The collection's writer would compete for the purchase; this one exports its spans.
        await system.StopWriterAsync();
        try
        {
            await using var writer = await SupermarketSystem.StartWorkerAsync(Worker.Writer, settings);
            await using var api = new SupermarketSystem.ApiFactory(settings);
            using var http = api.CreateClient();
            await SupermarketSystem.WaitUntilReadyAsync(http);

            // The till's own trace, as a traced client would send it.
            var traceId = ActivityTraceId.CreateRandom();
            using var request = new HttpRequestMessage(HttpMethod.Post, "/purchase/14/customer/14001/date/20210101")
            {
                Content = new StringContent(Purchases.Body((33, 2)), Encoding.UTF8, "application/json"),
            };
            request.Headers.Add("traceparent", $"00-{traceId.ToHexString()}-{ActivitySpanId.CreateRandom().ToHexString()}-01");
            Assert.Equal(HttpStatusCode.Created, (await http.SendAsync(request)).StatusCode);

            var trace = Convert.FromHexString(traceId.ToHexString());
            var spans = await Eventually.UntilAsync(
                () => Task.FromResult(receiver.Spans.Where(span => span.TraceId.AsSpan().SequenceEqual(trace)).ToList()),
                got => got.Any(span => span.Kind == OtlpSpanKind.Consumer), TimeSpan.FromSeconds(60));

            var described = string.Join("; ", spans.Select(span => $"{span.Kind} {span.Name}"));
            Assert.Contains(spans, span => span.Kind == OtlpSpanKind.Server && span.Name.Contains("/purchase", StringComparison.Ordinal));
            var published = spans.Where(span => span.Kind == OtlpSpanKind.Producer).ToList();
            Assert.True(published.Count > 0, $"No publish span in the trace: {described}");
            // The consume span's parent is the publish span: its context crossed the broker in the message's headers.
            Assert.True(spans.Any(span => span.Kind == OtlpSpanKind.Consumer
                && published.Any(publish => publish.SpanId.AsSpan().SequenceEqual(span.ParentSpanId))), $"No consume of the publish: {described}");
        }
        finally
        {
            await system.StartWriterAsync();
        }
    }
}
