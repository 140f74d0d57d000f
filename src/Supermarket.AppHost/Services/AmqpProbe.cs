using System.Net.Sockets;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Supermarket.AppHost.Services;

/// <summary>A RabbitMQ node's health check, which needs no account (the accounts come with the node's definitions):
/// sent AMQP 0-9-1's protocol header, a node that runs answers with its Connection.Start frame (type 1). The node
/// logs each probe as a client that went away; an Erlang VM started every few seconds to ask it (rabbitmq-diagnostics)
/// would cost seconds of CPU each time.</summary>
public static class AmqpProbe
{
    public static async Task<HealthCheckResult> AnswersAsync(int port, CancellationToken cancellation)
    {
        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync("127.0.0.1", port, cancellation);
            var stream = client.GetStream();
            await stream.WriteAsync("AMQP\0\0\u0009\u0001"u8.ToArray(), cancellation);
            var frameType = new byte[1];
            await stream.ReadExactlyAsync(frameType, cancellation);
            return frameType[0] == 1 ? HealthCheckResult.Healthy() : HealthCheckResult.Unhealthy($"port {port} did not answer AMQP");
        }
        catch (Exception error) when (error is SocketException or IOException or EndOfStreamException)
        {
            return HealthCheckResult.Unhealthy($"port {port}: {error.Message}");
        }
    }
}
