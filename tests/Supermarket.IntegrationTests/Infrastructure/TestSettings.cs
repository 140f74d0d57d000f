using MySqlConnector;
using Supermarket.Database;
using Supermarket.Messaging;
using Supermarket.Security;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>The real services, as the AppHost runs them (./run.sh up), but a vhost and a database of the tests' own,
/// so a test run neither sees nor disturbs the data of the system it runs beside.</summary>
public static class TestSettings
{
    public const string VirtualHost = "supermarket-test";
    public const string DatabaseName = "supermarket_test";
    // Where the AppHost runs RabbitMQ and MariaDB: the services' own defaults, written once, in their options classes.
    public static readonly string BrokerHost = new BrokerOptions().Host;
    public static readonly int BrokerPort = new BrokerOptions().Port;
    public const int ManagementPort = BrokerOptions.ManagementPort;
    private static readonly MySqlConnectionStringBuilder Database = new(new DatabaseOptions().ConnectionString);
    public static readonly int DatabasePort = (int)Database.Port;

    /// <summary>The accounts of this machine (made and provisioned by the AppHost): each process under test runs as its service's
    /// own users, so a right a service lacks fails its tests. The broker's administrator resets what the tests
    /// change; the services' users have no management rights.</summary>
    public static readonly LocalAccounts Accounts = LocalAccounts.Load();

    /// <summary>This run's key for local credentials (Auth:SigningKey), as the AppHost makes one per machine.</summary>
    public static readonly AuthOptions Auth = new() { SigningKey = LocalCredentials.NewSigningKey() };

    public static string Till(int store) => LocalCredentials.ForTill(Auth, store, TimeSpan.FromHours(1));

    public static string Analyst(string name = "tests") => LocalCredentials.ForAnalyst(Auth, name, TimeSpan.FromHours(1));

    public static readonly string CheckpointDirectory = Path.Combine(Path.GetTempPath(), $"supermarket-tests-{Environment.ProcessId}");

    /// <summary>Where the processes under test find MySQL; who they are there comes with their accounts.</summary>
    public static string DatabaseAt(string database = DatabaseName) =>
        new MySqlConnectionStringBuilder(Database.ConnectionString) { Database = database }.ConnectionString;

    /// <summary>MySQL as the writers' user, which may store purchases and their ledger entries and rewrite nothing
    /// (migration 0007): what a test does as a writer would.</summary>
    public static string ConnectionString(string database = DatabaseName) => Connect(DatabaseAt(database), Accounts.DatabaseWriter);

    /// <summary>The schema owner's: what only the migration step does, and what the tests read and change behind the
    /// services' backs (resets, triggers, a restore's rows).</summary>
    public static string OwnerConnectionString(string database = DatabaseName) => Connect(DatabaseAt(database), Accounts.DatabaseOwner);

    /// <summary>The load test's: reads rows, nothing else.</summary>
    public static string VerifierConnectionString() => Connect(DatabaseAt(), Accounts.DatabaseVerifier);

    /// <summary>MySQL as the aggregator's user, which may read the sales ledger only.</summary>
    public static string ReaderConnectionString() => Connect(DatabaseAt(), Accounts.DatabaseReader);

    private static string Connect(string database, Account account) =>
        new MySqlConnectionStringBuilder(database) { UserID = account.User, Password = account.Password }.ConnectionString;

    /// <summary>Each service's own users, as the AppHost gives them.</summary>
    public static Dictionary<string, string?> ApiAccounts() => AccountsOf(Accounts.BrokerApi, null);

    public static Dictionary<string, string?> OwnerAccounts() => new()
    {
        ["Database:User"] = Accounts.DatabaseOwner.User,
        ["Database:Password"] = Accounts.DatabaseOwner.Password,
    };

    public static Dictionary<string, string?> WriterAccounts() => AccountsOf(Accounts.BrokerWriter, Accounts.DatabaseWriter);

    public static Dictionary<string, string?> AggregatorAccounts() => AccountsOf(Accounts.BrokerAggregator, Accounts.DatabaseReader);

    private static Dictionary<string, string?> AccountsOf(Account broker, Account? database)
    {
        var settings = new Dictionary<string, string?>
        {
            ["Broker:Username"] = broker.User,
            ["Broker:Password"] = broker.Password,
        };
        if (database is not null)
        {
            settings["Database:User"] = database.User;
            settings["Database:Password"] = database.Password;
        }

        return settings;
    }

    /// <summary>Configuration every process under test gets, on top of its appsettings.json.</summary>
    public static Dictionary<string, string?> For(bool persistent = true) => new()
    {
        ["Broker:Host"] = BrokerHost,
        ["Broker:Port"] = BrokerPort.ToString(System.Globalization.CultureInfo.InvariantCulture),
        ["Broker:VirtualHost"] = VirtualHost,
        ["Broker:PersistentDelivery"] = persistent ? "true" : "false",
        ["Auth:SigningKey"] = Auth.SigningKey,
        // Longer than the tests' database stalls (ConnectionLossTests): a command a stall holds is still waiting when
        // the test looks, instead of ended by the driver's default of 30 s, which would hide what waits for it.
        ["Database:ConnectionString"] = $"{DatabaseAt()};Default Command Timeout=120",
        ["Database:MaxConnections"] = "6",
        ["Writer:BatchTimeLimit"] = "00:00:00.020",
        ["Writer:BatchConcurrency"] = "2",
        // The migrations under test take seconds: a schema lock still held after that is a test's leak, reported by the
        // step's own error rather than waited for the production default's 10 minutes (SchemaMigrationTests).
        ["Writer:SchemaLockWait"] = "00:01:00",
        // Small pages, so the history tests cross several page boundaries with a handful of purchases.
        ["HistoryQuestions:PageSize"] = "4",
        // The tests read many small pages as one analyst; AccessTests set a limit of their own.
        ["HistoryQuestions:ReadsPerMinute"] = "100000",
        ["Logging:LogLevel:Default"] = "Warning",
        // A folder of this test run's own: a checkpoint from another run names another database and would be
        // ignored anyway, but would cost a rebuild.
        ["Aggregator:CheckpointDirectory"] = CheckpointDirectory,
        // Several workers run at once in the tests, beside ./run.sh's: no fixed ports for their health and metrics.
        ["Urls"] = "http://127.0.0.1:0",
        // The in-memory API has no ports to tell apart: its management endpoints answer with the rest
        // (ManagementPortTests start a real one).
        ["Management:Url"] = "",
    };
}
