using System.Net.Sockets;
using MySqlConnector;
using Supermarket.Database.LoadTest;

namespace Supermarket.LoadTest.Tests;

/// <summary>What the load test's readings of MySQL take for the database being away (restarting, unreachable), so
/// that the live view shows "-" and the verification fails a check instead of the run dying without a report.</summary>
public sealed class DatabaseOutageFailuresTests
{
    /// <summary>MySqlConnector 2.6 wraps what fails while it connects in a MySqlException, but not what fails while it
    /// sends a query (its CommandExecutor: the socket's own SocketException, or IOException over TLS) or reads the rows
    /// (ResultSet.ScanRowAsync: EndOfStreamException when the server closes the connection mid-read).</summary>
    public static TheoryData<Exception> ServerGoneMidQuery => new()
    {
        new SocketException((int)SocketError.ConnectionReset),
        new IOException("Unable to write data to the transport connection: Connection reset by peer."),
        new EndOfStreamException("An incomplete response was received from the server"),
    };

    [Theory]
    [MemberData(nameof(ServerGoneMidQuery))]
    public void A_connection_lost_mid_query_is_the_database_away(Exception exception) =>
        Assert.True(DatabaseOutage.Explains(exception), exception.GetType().Name);

    [Fact]
    public void What_MySqlConnector_raises_itself_is_the_database_away() =>
        Assert.True(DatabaseOutage.Explains(CreateMySqlException()));

    [Fact]
    public void A_mistake_in_the_load_test_is_not()
    {
        Assert.False(DatabaseOutage.Explains(new InvalidOperationException("Sequence contains no elements")));
        Assert.False(DatabaseOutage.Explains(new NullReferenceException()));
    }

    /// <summary>MySqlException has no public constructor: a connection to a closed port raises a real one.</summary>
    private static MySqlException CreateMySqlException()
    {
        using var listener = new TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        var port = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        using var connection = new MySqlConnection($"Server=127.0.0.1;Port={port};User ID=nobody;Connect Timeout=5;Pooling=false");
        return Assert.Throws<MySqlException>(connection.Open);
    }
}
