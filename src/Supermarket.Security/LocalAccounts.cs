using System.Text.Json;

namespace Supermarket.Security;

/// <summary>A user and its password in RabbitMQ or MariaDB.</summary>
public sealed record Account(string User, string Password);

/// <summary>
/// The accounts <c>scripts/services.sh up</c> made on this machine (<c>.local/accounts.json</c>, mode 600): a broker
/// user per service, the broker's monitoring and administrator users, the schema owner's database user (the migration
/// step's), the writer's and the aggregator's database users, the load test's read-only one, each with a password made at random for this machine. Read by the tools that run beside a local system (the
/// load test, the integration tests); the services themselves are given theirs by <c>scripts/apps.sh</c>, in their
/// environment.
/// </summary>
public sealed class LocalAccounts(IReadOnlyDictionary<string, Account> accounts)
{
    public const string FileName = "accounts.json";

    public Account BrokerApi => this["broker-api"];
    public Account BrokerWriter => this["broker-writer"];
    public Account BrokerAggregator => this["broker-aggregator"];
    public Account BrokerMonitor => this["broker-monitor"];
    public Account BrokerAdmin => this["broker-admin"];
    public Account DatabaseOwner => this["database-owner"];
    public Account DatabaseWriter => this["database-writer"];
    public Account DatabaseReader => this["database-reader"];
    public Account DatabaseVerifier => this["database-verifier"];

    private Account this[string key] => accounts.TryGetValue(key, out var account)
        ? account
        : throw new InvalidOperationException($"The local accounts have no '{key}': run scripts/services.sh up to make it.");

    /// <summary>The accounts of this machine: from <c>$SUPERMARKET_STATE_DIR</c> when it is set (as the scripts read
    /// it), else from the <c>.local</c> folder of the checkout this program runs from. Null when there are none.</summary>
    public static LocalAccounts? Find()
    {
        var path = Path.Combine(StateDirectory() ?? "", FileName);
        if (!File.Exists(path))
        {
            return null;
        }

        var accounts = JsonSerializer.Deserialize<Dictionary<string, Account>>(File.ReadAllText(path), Json)
            ?? throw new InvalidDataException($"{path} holds no accounts.");
        return new LocalAccounts(accounts);
    }

    /// <summary>As <see cref="Find"/>, for those that cannot go on without them.</summary>
    public static LocalAccounts Load() => Find()
        ?? throw new InvalidOperationException("No local accounts: scripts/services.sh up makes them (in .local/accounts.json).");

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    private static string? StateDirectory()
    {
        if (Environment.GetEnvironmentVariable("SUPERMARKET_STATE_DIR") is { Length: > 0 } configured)
        {
            return configured;
        }

        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "run.sh")))
            {
                return Path.Combine(folder.FullName, ".local");
            }
        }

        return null;
    }
}
