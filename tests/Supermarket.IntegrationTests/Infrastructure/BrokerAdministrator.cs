using System.Net.Http.Headers;
using System.Net.Http.Json;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;
using System.Text;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>The broker's administrator account, through RabbitMQ's management API and AMQP: for what a test must change
/// on the broker itself (a queue deleted) or count there exactly (a queue's consumers, its messages).</summary>
public static class BrokerAdministrator
{
    public static HttpClient Client()
    {
        var http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{TestSettings.ManagementPort}/api/") };
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic",
            Convert.ToBase64String(Encoding.UTF8.GetBytes($"{TestSettings.Accounts.BrokerAdmin.User}:{TestSettings.Accounts.BrokerAdmin.Password}")));
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

    /// <summary>How many consumers each durable queue of the test vhost has now. The names come from the management
    /// API; the counts from AMQP, because the management API's figures are samples taken seconds apart.</summary>
    public static async Task<Dictionary<string, uint>> ConsumersAsync()
    {
        using var http = Client();
        var queues = await http.GetFromJsonAsync<DurableQueue[]>(
            $"queues/{Uri.EscapeDataString(TestSettings.VirtualHost)}?columns=name,durable");
        await using var connection = await AdministratorConnectionAsync();
        var consumers = new Dictionary<string, uint>();
        foreach (var queue in queues!.Where(queue => queue.Durable))
        {
            // A queue deleted meanwhile closes the channel it was asked on, hence one channel per queue.
            await using var channel = await connection.CreateChannelAsync();
            try
            {
                consumers[queue.Name] = (await channel.QueueDeclarePassiveAsync(queue.Name)).ConsumerCount;
            }
            catch (OperationInterruptedException)
            {
            }
        }

        return consumers;
    }

    /// <summary>How many messages a queue of the test vhost holds now (AMQP's count, not the management API's
    /// sample); 0 for a queue that does not exist.</summary>
    public static async Task<uint> MessagesAsync(string queue)
    {
        await using var connection = await AdministratorConnectionAsync();
        await using var channel = await connection.CreateChannelAsync();
        try
        {
            return (await channel.QueueDeclarePassiveAsync(queue)).MessageCount;
        }
        catch (OperationInterruptedException)
        {
            return 0;
        }
    }

    /// <summary>AMQP to the test vhost as the administrator: exact counts, where the management API has samples.</summary>
    private static Task<IConnection> AdministratorConnectionAsync() => new ConnectionFactory
    {
        HostName = TestSettings.BrokerHost,
        Port = TestSettings.BrokerPort,
        VirtualHost = TestSettings.VirtualHost,
        UserName = TestSettings.Accounts.BrokerAdmin.User,
        Password = TestSettings.Accounts.BrokerAdmin.Password,
    }.CreateConnectionAsync();

    private sealed record DurableQueue(string Name, bool Durable);
}
