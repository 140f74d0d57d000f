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

    [Fact]
    public async Task A_reading_is_tried_again_while_the_database_is_away_and_its_value_returned_once_it_is_back()
    {
        var tries = 0;
        var told = new List<string>();

        var value = await DatabaseOutage.WaitOutAsync(
            () => ++tries < 3 ? throw new EndOfStreamException($"cut {tries}") : Task.FromResult(42L), TimeSpan.FromMinutes(1), away => told.Add(away.Message));

        Assert.Equal(42L, value);
        Assert.Equal(["cut 1", "cut 2"], told);
    }

    [Fact]
    public async Task A_reading_that_fails_for_another_reason_or_past_the_patience_is_not_tried_again()
    {
        var tries = 0;
        await Assert.ThrowsAsync<InvalidOperationException>(() => DatabaseOutage.WaitOutAsync<long>(
            () => { tries++; throw new InvalidOperationException("a mistake"); }, TimeSpan.FromMinutes(1), _ => { }));
        Assert.Equal(1, tries);

        await Assert.ThrowsAsync<IOException>(() => DatabaseOutage.WaitOutAsync<long>(
            () => throw new IOException("away for good"), TimeSpan.Zero, _ => { }));
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
