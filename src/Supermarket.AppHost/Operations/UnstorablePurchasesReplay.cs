using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text;
using RabbitMQ.Client;
using Supermarket.Messaging;
using Supermarket.Security;

namespace Supermarket.AppHost.Operations;

/// <summary>Puts the purchases MySQL refused back on the writer's path once the cause is fixed, with a one-off shovel
/// that removes itself (docs/operations.md, "Set-aside purchases").</summary>
public sealed class UnstorablePurchasesReplay(int amqpPort, int managementPort, Account administrator)
{
    private const string Shovel = "replay-unstorable";

    public static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    public async Task<uint> ReplayAsync(string vhost, CancellationToken cancellation)
    {
        // A shovel told to move "the queue's length" of nothing would wait for a first message without end.
        var setAside = await SetAsideAsync(vhost, cancellation);
        if (setAside == 0)
        {
            return 0;
        }

        using var http = Client();
        var escapedVhost = Uri.EscapeDataString(vhost);

        // amqp:/// and the vhost: the node the shovel runs on, over a direct connection, in that vhost.
        var here = $"amqp:///{escapedVhost}";
        var parameter = $"parameters/shovel/{escapedVhost}/{Shovel}";
        using (var made = await http.PutAsJsonAsync(parameter, new
        {
            value = new Dictionary<string, string>
            {
                ["src-uri"] = here,
                ["src-queue"] = Supermarket.Messaging.Topology.UnstorablePurchasesQueue,
                ["src-delete-after"] = "queue-length",
                ["dest-uri"] = here,
                ["dest-exchange"] = Supermarket.Messaging.Topology.PurchaseBatchesExchange,
            },
        }, cancellation))
        {
            made.EnsureSuccessStatusCode();
        }

        // The shovel deletes its own parameter once it has moved every message the queue held when it started.
        var deadline = DateTime.UtcNow + Patience;
        while (true)
        {
            using var shovel = await http.GetAsync(parameter, cancellation);
            if (shovel.StatusCode == HttpStatusCode.NotFound)
            {
                return setAside;
            }

            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"The replay shovel of vhost {vhost} did not finish within {Patience.TotalSeconds:0} s (rabbitmqctl shovel_status -p {vhost}).");
            }

            await Task.Delay(TimeSpan.FromSeconds(1), cancellation);
        }
    }

    /// <summary>From AMQP: the management API's depths are samples, missing a purchase set aside just now.</summary>
    private async Task<uint> SetAsideAsync(string vhost, CancellationToken cancellation)
    {
        var factory = new ConnectionFactory
        {
            HostName = "127.0.0.1",
            Port = amqpPort,
            VirtualHost = vhost,
            UserName = administrator.User,
            Password = administrator.Password,
        };
        await using var connection = await factory.CreateConnectionAsync(cancellation);
        await using var channel = await connection.CreateChannelAsync(cancellationToken: cancellation);
        return (await channel.QueueDeclarePassiveAsync(Supermarket.Messaging.Topology.UnstorablePurchasesQueue, cancellation)).MessageCount;
    }

    private HttpClient Client()
    {
        var http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{managementPort}/api/") };
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic",
            Convert.ToBase64String(Encoding.UTF8.GetBytes($"{administrator.User}:{administrator.Password}")));
        return http;
    }
}

public static class UnstorablePurchasesReplayCommand
{
    public static IResourceBuilder<ProjectResource> WithUnstorablePurchasesReplay(this IResourceBuilder<ProjectResource> writer,
        Services.BrokerNode node, LocalAccounts accounts) =>
        writer.WithCommand(Messaging.Topology.ReplayUnstorableCommand, Messaging.Topology.ReplayUnstorableCommandTitle, async context =>
        {
            var replay = new UnstorablePurchasesReplay(node.Port, node.ManagementPort, accounts.BrokerAdmin);
            await replay.ReplayAsync(new BrokerOptions().VirtualHost, context.CancellationToken);
            return CommandResults.Success();
        }, new CommandOptions
        {
            Description = "Once the cause MySQL refused them for is fixed: the purchases the writer set aside, back to it (a purchase still refused goes aside again).",
            IconName = "ArrowRepeatAll",
        });
}
