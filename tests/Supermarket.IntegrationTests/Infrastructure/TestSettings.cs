using Supermarket.Security;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>The real services, as scripts/services.sh starts them, but a vhost and a database of the tests' own,
/// so a test run neither sees nor disturbs the data of `./run.sh`.</summary>
public static class TestSettings
{
    public const string VirtualHost = "supermarket-test";
    public const string DatabaseName = "supermarket_test";
    public const string BrokerHost = "127.0.0.1";
    public const int BrokerPort = 5672;
    public const int ManagementPort = 15672;
    public const int DatabasePort = 3306;
    public const string User = "supermarket";
    public const string Password = "supermarket-local";

    /// <summary>The broker's administrator (scripts/services.sh), for what the tests reset; the applications' user
    /// has no management rights.</summary>
    public const string BrokerAdmin = "supermarket_admin";
    public const string BrokerAdminPassword = "supermarket-admin-local";

    /// <summary>This run's key for local credentials (Auth:SigningKey), as ./run.sh makes one per machine.</summary>
    public static readonly AuthOptions Auth = new() { SigningKey = LocalCredentials.NewSigningKey() };

    public static string Till(int store) => LocalCredentials.ForTill(Auth, store, TimeSpan.FromHours(1));

    public static string Analyst(string name = "tests") => LocalCredentials.ForAnalyst(Auth, name, TimeSpan.FromHours(1));

    public static readonly string CheckpointDirectory = Path.Combine(Path.GetTempPath(), $"supermarket-tests-{Environment.ProcessId}");

    /// <summary>The aggregator's database user (scripts/services.sh): SELECT only.</summary>
    public const string Reader = "supermarket_reader";
    public const string ReaderPassword = "supermarket-reader-local";

    public static string ConnectionString(string database = DatabaseName) =>
        $"Server=127.0.0.1;Port={DatabasePort};Database={database};User ID={User};Password={Password};SslMode=None";

    public static string ReaderConnectionString() =>
        $"Server=127.0.0.1;Port={DatabasePort};Database={DatabaseName};User ID={Reader};Password={ReaderPassword};SslMode=None";

    /// <summary>What the aggregator gets: the read-only database user, as deployed.</summary>
    public static Dictionary<string, string?> ForAggregator()
    {
        var settings = For();
        settings["Database:ConnectionString"] = ReaderConnectionString();
        return settings;
    }

    /// <summary>Configuration every process under test gets, on top of its appsettings.json.</summary>
    public static Dictionary<string, string?> For(bool persistent = true) => new()
    {
        ["Broker:Host"] = BrokerHost,
        ["Broker:Port"] = BrokerPort.ToString(System.Globalization.CultureInfo.InvariantCulture),
        ["Broker:VirtualHost"] = VirtualHost,
        ["Broker:Username"] = User,
        ["Broker:Password"] = Password,
        ["Broker:PersistentDelivery"] = persistent ? "true" : "false",
        ["Auth:SigningKey"] = Auth.SigningKey,
        // Longer than the tests' database stalls (ConnectionLossTests): a command a stall holds is still waiting when
        // the test looks, instead of ended by the driver's default of 30 s, which would hide what waits for it.
        ["Database:ConnectionString"] = $"{ConnectionString()};Default Command Timeout=120",
        ["Database:MaxConnections"] = "6",
        ["Writer:BatchSize"] = "50",
        ["Writer:BatchTimeLimit"] = "00:00:00.020",
        ["Writer:BatchConcurrency"] = "2",
        // Small pages, so the history tests cross several page boundaries with a handful of purchases.
        ["History:PageSize"] = "4",
        // The tests read many small pages as one analyst; AccessTests set a limit of their own.
        ["History:ReadsPerMinute"] = "100000",
        ["Logging:LogLevel:Default"] = "Warning",
        // A folder of this test run's own: a checkpoint from another run names another database and would be
        // ignored anyway, but would cost a rebuild.
        ["Aggregator:CheckpointDirectory"] = CheckpointDirectory,
        // Several workers run at once in the tests, beside ./run.sh's: no fixed ports for their health and metrics.
        ["Urls"] = "http://127.0.0.1:0",
    };
}
