using System.Net.Sockets;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Supermarket.AppHost.Services;

/// <summary>A node's health with no account: a running node answers AMQP's header with Connection.Start (frame type 1)
/// and logs a client gone. rabbitmq-diagnostics would start an Erlang VM, seconds of CPU, at each probe.</summary>
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
