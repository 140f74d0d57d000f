using System.Net.Sockets;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Supermarket.AppHost.Services;

/// <summary>Health checks that need no account (the accounts are provisioned once the server answers): a server is
/// healthy once it speaks its protocol on its port.</summary>
public static class ProtocolProbes
{
    /// <summary>Sends AMQP 0-9-1's protocol header: a RabbitMQ node that runs answers with its Connection.Start frame
    /// (type 1).</summary>
    public static Task<HealthCheckResult> AnswersAmqpAsync(int port, CancellationToken cancellation) =>
        ProbeAsync(port, "AMQP", "AMQP\0\0\u0009\u0001"u8.ToArray(), answer => answer[0] == 1, answerLength: 1, cancellation);

    /// <summary>A MySQL server speaks first: a greeting whose fifth byte is the protocol version (10).</summary>
    public static Task<HealthCheckResult> AnswersMySqlAsync(int port, CancellationToken cancellation) =>
        ProbeAsync(port, "MySQL", [], answer => answer[4] == 10, answerLength: 5, cancellation);

    private static async Task<HealthCheckResult> ProbeAsync(int port, string protocol, byte[] hello, Func<byte[], bool> accepts,
        int answerLength, CancellationToken cancellation)
    {
        try
        {
            using var client = new TcpClient();
            await client.ConnectAsync("127.0.0.1", port, cancellation);
            var stream = client.GetStream();
            await stream.WriteAsync(hello, cancellation);
            var answer = new byte[answerLength];
            await stream.ReadExactlyAsync(answer, cancellation);
            return accepts(answer) ? HealthCheckResult.Healthy() : HealthCheckResult.Unhealthy($"port {port} did not answer {protocol}");
        }
        catch (Exception error) when (error is SocketException or IOException or EndOfStreamException)
        {
            return HealthCheckResult.Unhealthy($"port {port}: {error.Message}");
        }
    }
}
