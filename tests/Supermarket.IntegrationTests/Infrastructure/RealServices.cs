using System.Net.Http.Headers;
using System.Net.Sockets;
using Dapper;
using MySqlConnector;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>
/// Checks that the real RabbitMQ and MariaDB (the test run's AppHost's: <see cref="TestedAppHost"/>) answer, and gives
/// the run a fresh test vhost and database. A missing service fails the run with a message that names it; nothing is
/// skipped.
/// </summary>
public static class RealServices
{
    private static readonly SemaphoreSlim Once = new(1, 1);
    private static bool _prepared;

    public static async Task PrepareAsync()
    {
        await Once.WaitAsync();
        try
        {
            if (_prepared)
            {
                return;
            }

            await EnsureReachableAsync("RabbitMQ", TestSettings.BrokerPort);
            await EnsureReachableAsync("MariaDB", TestSettings.DatabasePort);
            await ResetVirtualHostAsync();
            await ResetDatabaseAsync();
            _prepared = true;
        }
        finally
        {
            Once.Release();
        }
    }

    public static async Task EnsureReachableAsync(string service, int port)
    {
        using var client = new TcpClient();
        try
        {
            await client.ConnectAsync("127.0.0.1", port).WaitAsync(TimeSpan.FromSeconds(3));
        }
        catch (Exception exception) when (exception is SocketException or TimeoutException)
        {
            throw new InvalidOperationException(
                $"{service} is not reachable on 127.0.0.1:{port}: the test run's AppHost (TestedAppHost) started it, " +
                "so it stopped since (see its console log in the test output).", exception);
        }
    }

    private static async Task ResetVirtualHostAsync()
    {
        using var http = BrokerAdministrator.Client();
        var vhost = Uri.EscapeDataString(TestSettings.VirtualHost);
        // The management API may start a moment after AMQP does.
        for (var attempt = 0; ; attempt++)
        {
            try
            {
                var deleted = await http.DeleteAsync($"vhosts/{vhost}");
                if (deleted.IsSuccessStatusCode || deleted.StatusCode == System.Net.HttpStatusCode.NotFound)
                {
                    break;
                }

                deleted.EnsureSuccessStatusCode();
            }
            catch (HttpRequestException) when (attempt < 30)
            {
                await Task.Delay(1000);
            }
        }

        // Made again as the fixture made it: each user with the rights the system gives it (scripts/broker-rights).
        await TestsOwnPlaces.AddVirtualHostAsync(CancellationToken.None);
    }

    private static async Task ResetDatabaseAsync()
    {
        await TestDatabase.CreateEmptyAsync(TestSettings.DatabaseName);
        // As a deployment does: the migration step as the schema owner, before any writer starts.
        await SupermarketSystem.MigrateSchemaAsync(TestSettings.For());
    }
}
