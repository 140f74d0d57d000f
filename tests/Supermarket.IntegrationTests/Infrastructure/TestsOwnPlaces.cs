extern alias LoadTest;

using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Supermarket.Faults;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>
/// What the tests add to the system they start, so that a test run neither sees nor disturbs the system's own data:
/// the <c>supermarket-test</c> vhost, where each broker user has the rights it has in the system's (the same
/// scripts/broker-rights files the AppHost grants), and the schema owner's right to the <c>supermarket_test%</c>
/// databases, which the tests create and migrate as the migration step does the system's. The AppHost holds the
/// system alone; what the tests need beside it is made here, once the system runs, on its broker and its database.
/// </summary>
public static class TestsOwnPlaces
{
    public static async Task AddAsync(SystemFaults faults, CancellationToken cancellationToken)
    {
        await AddVirtualHostAsync(cancellationToken);
        await GrantTestDatabasesAsync(faults, cancellationToken);
    }

    /// <summary>The tests' vhost, where each broker user has the rights it has in the system's.</summary>
    public static async Task AddVirtualHostAsync(CancellationToken cancellationToken)
    {
        using var http = BrokerAdministrator.Client();
        var vhost = Uri.EscapeDataString(TestSettings.VirtualHost);
        (await http.PutAsJsonAsync($"vhosts/{vhost}", new { }, cancellationToken)).EnsureSuccessStatusCode();
        var rights = Path.Combine(LoadTest::Supermarket.LoadTest.Repository.Root() ?? throw new InvalidOperationException("The checkout is not above the tests."),
            "scripts", "broker-rights");
        foreach (var (key, account) in TestSettings.Accounts.All.Where(account => account.Key.StartsWith("broker-", StringComparison.Ordinal)))
        {
            var granted = JsonNode.Parse(await File.ReadAllTextAsync(Path.Combine(rights, $"{key["broker-".Length..]}.json"), cancellationToken))!;
            using var put = await http.PutAsJsonAsync($"permissions/{vhost}/{Uri.EscapeDataString(account.User)}", granted, cancellationToken);
            put.EnsureSuccessStatusCode();
        }
    }

    /// <summary>As MariaDB's root, over the socket the AppHost's server listens on (the operator's access, as the
    /// faults have it): the owner's right on the tests' databases.</summary>
    private static async Task GrantTestDatabasesAsync(SystemFaults faults, CancellationToken cancellationToken)
    {
        var owner = TestSettings.Accounts.DatabaseOwner.User.Replace("'", "''", StringComparison.Ordinal);
        var tests = $"`{TestSettings.DatabaseName.Replace("_", "\\_", StringComparison.Ordinal)}%`";
        await faults.DatabaseAsync($"GRANT ALL PRIVILEGES ON {tests}.* TO '{owner}'@'127.0.0.1' WITH GRANT OPTION", cancellationToken);
    }
}
