using System.Net.Http.Json;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.Foundation;

/// <summary>The operator's queue deletion (the load test's <c>broker delete-queues</c>: SystemFaults, rabbitmqctl as the
/// node) on the real broker: every queue of the vhost goes, and no other vhost's. On two vhosts of the test's own, so
/// that the system's queues and the other tests' stay.</summary>
public sealed class QueueDeletionTests(TestedAppHost appHost)
{
    private const string Emptied = "supermarket-test-queues-deleted";
    private const string Kept = "supermarket-test-queues-kept";

    [Fact]
    public async Task Every_queue_of_the_vhost_is_deleted_and_no_other_vhosts()
    {
        using var http = BrokerAdministrator.Client();
        try
        {
            foreach (var vhost in new[] { Emptied, Kept })
            {
                await PutAsync(http, $"vhosts/{Uri.EscapeDataString(vhost)}", new { });
                await PutAsync(http, $"permissions/{Uri.EscapeDataString(vhost)}/{Uri.EscapeDataString(TestSettings.Accounts.BrokerAdmin.User)}",
                    new { configure = ".*", write = ".*", read = ".*" });
            }

            await DeclareAsync(http, Emptied, "supermarket.tests.classic", new { });
            await DeclareAsync(http, Emptied, "supermarket.tests.quorum", new Dictionary<string, string> { ["x-queue-type"] = "quorum" });
            await DeclareAsync(http, Kept, "supermarket.tests.kept", new { });

            var deleted = await appHost.Faults.DeleteQueuesAsync(Emptied, CancellationToken.None);

            Assert.Equal(["supermarket.tests.classic", "supermarket.tests.quorum"], deleted.Order(StringComparer.Ordinal));
            Assert.Empty(await QueuesAsync(http, Emptied));
            Assert.Equal(["supermarket.tests.kept"], await QueuesAsync(http, Kept));
        }
        finally
        {
            foreach (var vhost in new[] { Emptied, Kept })
            {
                (await http.DeleteAsync($"vhosts/{Uri.EscapeDataString(vhost)}")).Dispose();
            }
        }
    }

    private static Task DeclareAsync(HttpClient http, string vhost, string queue, object arguments) =>
        PutAsync(http, $"queues/{Uri.EscapeDataString(vhost)}/{Uri.EscapeDataString(queue)}", new { durable = true, arguments });

    private static async Task PutAsync(HttpClient http, string path, object body)
    {
        using var put = await http.PutAsJsonAsync(path, body);
        put.EnsureSuccessStatusCode();
    }

    private static async Task<string[]> QueuesAsync(HttpClient http, string vhost) =>
        [.. (await http.GetFromJsonAsync<NamedQueue[]>($"queues/{Uri.EscapeDataString(vhost)}?columns=name"))!.Select(queue => queue.Name)];

    private sealed record NamedQueue(string Name);
}
