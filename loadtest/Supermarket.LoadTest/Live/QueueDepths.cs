using System.Text.Json;
using Supermarket.Messaging;

namespace Supermarket.LoadTest.Live;

/// <summary>Reads how many messages wait in the workers' queues, from RabbitMQ's management API.</summary>
public sealed class QueueDepths : IDisposable
{
    // The Sales aggregator follows the sales ledger in MySQL, so what trails the 201s is the writer's queue.
    public static readonly string[] Queues = [Topology.PurchasesWriterQueue];

    private readonly HttpClient _http;
    private readonly string _virtualHost;

    public QueueDepths(Uri management, string virtualHost = "/")
    {
        _virtualHost = Uri.EscapeDataString(virtualHost);
        _http = BrokerManagement.CreateClient(management);
    }

    /// <summary>Messages ready or unacknowledged per queue; -1 where the API did not answer.</summary>
    public async Task<long[]> ReadAsync()
    {
        var depths = new long[Queues.Length];
        for (var i = 0; i < Queues.Length; i++)
        {
            try
            {
                using var json = JsonDocument.Parse(await _http.GetStringAsync($"queues/{_virtualHost}/{Queues[i]}"));
                depths[i] = json.RootElement.TryGetProperty("messages", out var messages) ? messages.GetInt64() : 0;
            }
            catch (Exception exception) when (exception is HttpRequestException or TaskCanceledException or JsonException)
            {
                depths[i] = -1;
            }
        }

        return depths;
    }

    public void Dispose() => _http.Dispose();
}
