using System.Collections.Concurrent;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>
/// An OTLP/HTTP endpoint the test owns, on loopback: it keeps the spans of every trace export it receives (protobuf
/// on /v1/traces) and accepts the other signals unread. What a collector would see, without running one.
/// </summary>
public sealed class OtlpReceiver : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly ConcurrentQueue<OtlpSpan> _spans = new();

    private OtlpReceiver(WebApplication app) => _app = app;

    public Uri Url => new(_app.Urls.First());

    public IReadOnlyCollection<OtlpSpan> Spans => [.. _spans];

    public static async Task<OtlpReceiver> StartAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        var app = builder.Build();
        var receiver = new OtlpReceiver(app);
        app.MapPost("/v1/traces", async (HttpRequest request) =>
        {
            using var body = new MemoryStream();
            await request.Body.CopyToAsync(body);
            foreach (var span in OtlpSpan.ReadExport(body.ToArray()))
            {
                receiver._spans.Enqueue(span);
            }

            return Results.Ok();
        });
        app.MapPost("/v1/{signal}", () => Results.Ok());
        await app.StartAsync();
        return receiver;
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}

/// <summary>The fields of an OTLP span a test looks at, read from an ExportTraceServiceRequest (protobuf: resource
/// spans 1, scope spans 2, spans 2; a span's trace id 1, span id 2, parent span id 4, name 5, kind 6) and the
/// service.name attribute of its resource.</summary>
public sealed record OtlpSpan(string Service, byte[] TraceId, byte[] SpanId, byte[] ParentSpanId, string Name, OtlpSpanKind Kind)
{
    public static IEnumerable<OtlpSpan> ReadExport(byte[] export)
    {
        foreach (var resourceSpans in Fields(export, 1))
        {
            var service = Fields(resourceSpans, 1).SelectMany(resource => Fields(resource, 1))
                .Select(Attribute).FirstOrDefault(attribute => attribute.Key == "service.name").Value ?? "";
            foreach (var span in Fields(resourceSpans, 2).SelectMany(scope => Fields(scope, 2)))
            {
                yield return new OtlpSpan(service, Bytes(span, 1), Bytes(span, 2), Bytes(span, 4),
                    System.Text.Encoding.UTF8.GetString(Bytes(span, 5)), (OtlpSpanKind)Varint(span, 6));
            }
        }
    }

    /// <summary>A KeyValue (key 1) whose AnyValue holds a string (1).</summary>
    private static (string Key, string? Value) Attribute(byte[] keyValue)
    {
        var value = Fields(keyValue, 2).Select(any => Fields(any, 1).FirstOrDefault()).FirstOrDefault();
        return (System.Text.Encoding.UTF8.GetString(Bytes(keyValue, 1)), value is null ? null : System.Text.Encoding.UTF8.GetString(value));
    }

    private static byte[] Bytes(byte[] message, int field) => Fields(message, field).FirstOrDefault() ?? [];

    private static long Varint(byte[] message, int field)
    {
        foreach (var (number, wireType, value, _) in Read(message))
        {
            if (number == field && wireType == 0)
            {
                return value;
            }
        }

        return 0;
    }

    /// <summary>The length-delimited fields with that number.</summary>
    private static IEnumerable<byte[]> Fields(byte[] message, int field) =>
        Read(message).Where(f => f.Number == field && f.WireType == 2).Select(f => f.Bytes!);

    private static IEnumerable<(int Number, int WireType, long Value, byte[]? Bytes)> Read(byte[] message)
    {
        var at = 0;
        while (at < message.Length)
        {
            var key = ReadVarint(message, ref at);
            var (number, wireType) = ((int)(key >> 3), (int)(key & 7));
            switch (wireType)
            {
                case 0:
                    yield return (number, wireType, ReadVarint(message, ref at), null);
                    break;
                case 1:
                    at += 8;
                    break;
                case 2:
                    var length = (int)ReadVarint(message, ref at);
                    yield return (number, wireType, 0, message[at..(at + length)]);
                    at += length;
                    break;
                case 5:
                    at += 4;
                    break;
                default:
                    throw new InvalidDataException($"Protobuf wire type {wireType} is not OTLP's.");
            }
        }
    }

    private static long ReadVarint(byte[] message, ref int at)
    {
        long value = 0;
        for (var shift = 0; ; shift += 7)
        {
            var b = message[at++];
            value |= (long)(b & 0x7f) << shift;
            if (b < 0x80)
            {
                return value;
            }
        }
    }
}

public enum OtlpSpanKind
{
    Unspecified = 0,
    Internal = 1,
    Server = 2,
    Client = 3,
    Producer = 4,
    Consumer = 5,
}
