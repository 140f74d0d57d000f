using System.Security.Cryptography;
using System.Text.Json;

namespace Supermarket.Security;

/// <summary>A user and its password in RabbitMQ or MariaDB.</summary>
public sealed record Account(string User, string Password);

/// <summary>This machine's accounts (<c>.local/accounts.json</c>), each password made at random here, so none is known
/// beyond it (docs/operations.md, "Local accounts").</summary>
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

    public IReadOnlyDictionary<string, Account> All => accounts;

    private Account this[string key] => accounts.TryGetValue(key, out var account)
        ? account
        : throw new InvalidOperationException($"The local accounts have no '{key}': ./run.sh up makes it.");

    private static readonly Dictionary<string, string> Users = new()
    {
        ["broker-api"] = "supermarket_api",
        ["broker-writer"] = "supermarket_writer",
        ["broker-aggregator"] = "supermarket_aggregator",
        ["broker-monitor"] = "supermarket_monitor",
        ["broker-admin"] = "supermarket_admin",
        ["database-owner"] = "supermarket_owner",
        ["database-writer"] = "supermarket",
        ["database-reader"] = "supermarket_reader",
        ["database-verifier"] = "supermarket_verifier",
    };

    public static LocalAccounts? Find()
    {
        if (LocalState.Directory is null || FilePath is var path && !File.Exists(path))
        {
            return null;
        }

        var accounts = JsonSerializer.Deserialize<Dictionary<string, Account>>(File.ReadAllText(path), Json)
            ?? throw new InvalidDataException($"{path} holds no accounts.");
        return new LocalAccounts(accounts);
    }

    public static LocalAccounts Load() => Find()
        ?? throw new InvalidOperationException("No local accounts: ./run.sh up makes them (in .local/accounts.json).");

    public static LocalAccounts GetOrCreate()
    {
        var existing = Find() is { } found ? found.All : new Dictionary<string, Account>();
        var accounts = Users.ToDictionary(
            user => user.Key,
            user => existing.TryGetValue(user.Key, out var account) ? account : new Account(user.Value, RandomNumberGenerator.GetString(PasswordCharacters, 32)));
        if (accounts.Count != existing.Count || accounts.Keys.Any(key => !existing.ContainsKey(key)))
        {
            OwnerOnlyFile.Write(FilePath, JsonSerializer.Serialize(accounts, Json));
        }

        return new LocalAccounts(accounts);
    }

    private const string PasswordCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private static string FilePath => Path.Combine(
        LocalState.Directory ?? throw new InvalidOperationException("No local state folder: run from a checkout, or set SUPERMARKET_STATE_DIR."), FileName);

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);
}
