using System.Net;
using System.Net.Sockets;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>
/// A relay on loopback in front of a server that cuts each connection (a reset, both ways) once the server has sent
/// it a given number of bytes: a connection lost at a known point of a reply, as a server restarted or a network
/// dropped mid-answer leaves it, without waiting for one to happen by chance.
/// </summary>
public sealed class ConnectionCut : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly string _host;
    private readonly int _port;
    private readonly long _serverBytesBeforeTheCut;
    private readonly Task _accepting;

    public ConnectionCut(string host, int port, long serverBytesBeforeTheCut)
    {
        (_host, _port, _serverBytesBeforeTheCut) = (host, port, serverBytesBeforeTheCut);
        _listener.Start();
        _accepting = AcceptAsync();
    }

    /// <summary>The port a client connects to instead of the server's.</summary>
    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _accepting;
        _stop.Dispose();
    }

    private async Task AcceptAsync()
    {
        var relays = new List<Task>();
        try
        {
            while (true)
            {
                relays.Add(RelayAsync(await _listener.AcceptTcpClientAsync(_stop.Token)));
            }
        }
        catch (Exception exception) when (exception is OperationCanceledException or SocketException or ObjectDisposedException)
        {
            // Disposed.
        }

        await Task.WhenAll(relays);
    }

    private async Task RelayAsync(TcpClient client)
    {
        using var server = new TcpClient();
        using (client)
        {
            try
            {
                await server.ConnectAsync(_host, _port, _stop.Token);
            }
            catch (Exception exception) when (exception is SocketException or OperationCanceledException)
            {
                // The client sees its connection closed; the test sees that, not the relay's failure.
                return;
            }

            var toServer = CopyAsync(client.GetStream(), server.GetStream(), long.MaxValue);
            var toClient = CopyAsync(server.GetStream(), client.GetStream(), _serverBytesBeforeTheCut);
            await Task.WhenAny(toServer, toClient);
            // A reset rather than an orderly close: nothing the server sent after the cut reaches the client.
            client.Client.LingerState = new LingerOption(enable: true, seconds: 0);
            server.Client.LingerState = new LingerOption(enable: true, seconds: 0);
        }
    }

    /// <summary>Copies until the source ends, the limit is reached, or either side is gone.</summary>
    private async Task CopyAsync(Stream from, Stream to, long limit)
    {
        var buffer = new byte[8192];
        var copied = 0L;
        try
        {
            while (copied < limit)
            {
                var read = await from.ReadAsync(buffer.AsMemory(0, (int)Math.Min(buffer.Length, limit - copied)), _stop.Token);
                if (read == 0)
                {
                    return;
                }

                await to.WriteAsync(buffer.AsMemory(0, read), _stop.Token);
                copied += read;
            }
        }
        catch (Exception exception) when (exception is IOException or SocketException or ObjectDisposedException or OperationCanceledException)
        {
            // The other side went first.
        }
    }
}
