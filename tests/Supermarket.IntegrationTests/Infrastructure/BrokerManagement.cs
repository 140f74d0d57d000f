using System.Net.Http.Headers;
using System.Text;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>RabbitMQ's management API, as the administrator, for what a test must change on the broker itself.</summary>
public static class BrokerManagement
{
    public static HttpClient Client()
    {
        var http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{TestSettings.ManagementPort}/api/") };
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic",
            Convert.ToBase64String(Encoding.UTF8.GetBytes($"{TestSettings.BrokerAdmin}:{TestSettings.BrokerAdminPassword}")));
        return http;
    }

    /// <summary>Deletes a queue of the test vhost with what it holds; its owner declares it again when it starts.</summary>
    public static async Task DeleteQueueAsync(string queue)
    {
        using var http = Client();
        using var deleted = await http.DeleteAsync($"queues/{Uri.EscapeDataString(TestSettings.VirtualHost)}/{Uri.EscapeDataString(queue)}");
        if (deleted.StatusCode != System.Net.HttpStatusCode.NotFound)
        {
            deleted.EnsureSuccessStatusCode();
        }
    }
}
