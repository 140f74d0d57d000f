using Supermarket.Security;
using Supermarket.LoadTest.Scenario;
using Supermarket.LoadTest.Thresholds;

namespace Supermarket.LoadTest;

/// <summary>The load test's options, with the course reference client's defaults; read from the command line by
/// System.CommandLine (<see cref="LoadCommandLine"/>), whose defaults are these.</summary>
public sealed record LoadOptions
{
    public int Stores { get; init; } = 32;
    public int CustomersPerStore { get; init; } = 1000;
    public int MaxItemId { get; init; } = 100_000;
    public int PurchasesPerHour { get; init; } = 300;
    public int ItemsPerPurchase { get; init; } = 5;
    public string Date { get; init; } = "20210101";
    public Uri Url { get; init; } = LocalSystem.Api;
    public int Hours { get; init; } = 9;
    public Simulation Simulation { get; init; } = Simulation.Day;

    /// <summary>Constant and ramp: purchases per store per second (a ramp's last rate).</summary>
    public double Rate { get; init; } = 100;

    /// <summary>Ramp: the first rate, purchases per store per second.</summary>
    public double RampFrom { get; init; } = 1;

    /// <summary>Constant and ramp: the most requests in flight at once; an arrival beyond it is counted as a failure.</summary>
    public int MaxInFlight { get; init; } = 1024;

    /// <summary>Requests that start this early in the run are sent and verified but left out of the statistics
    /// (throughput and latency), while connections, JIT and caches warm up.</summary>
    public TimeSpan WarmUp { get; init; } = TimeSpan.Zero;

    /// <summary>How long the load generator first sends the same load to a bare server of its own on loopback
    /// (<see cref="Scenario.ClientPriming"/>), so that its own start is not timed as the system's; the system sees none of it.</summary>
    public TimeSpan Prime { get; init; } = TimeSpan.Zero;

    /// <summary>What the run must meet; a breach makes the exit code 2 (see <see cref="Threshold"/>).</summary>
    public IReadOnlyList<Threshold> Thresholds { get; init; } = [];

    /// <summary>The run's name in its report and in comparisons (default: the simulation and the store count).</summary>
    public string? Label { get; init; }

    /// <summary>Draw the live console dashboard; without it (or when the output is not a terminal) a line every
    /// couple of seconds.</summary>
    public bool Plain { get; init; }

    public int Seed { get; init; } = 2021;

    /// <summary>Purchase history questions per second while the day runs (store managers and support reading a
    /// store's day or a customer's purchases, the first page of each), timed apart from the POSTs. Zero: none.</summary>
    public int HistoryQueriesPerSecond { get; init; }

    /// <summary>Sales questions per second while the day runs (analysts asking a store's top items or an item's top
    /// stores, alternately), timed apart from the POSTs. Zero: none.</summary>
    public int SalesQueriesPerSecond { get; init; }

    /// <summary>Live pages (the page at /) held open while the day runs, each reading its stream: what the analysts'
    /// pages cost the system beside the day. Zero: none.</summary>
    public int LivePages { get; init; }

    /// <summary>How long a store keeps retrying a purchase that got no answer, a 502, a 503 or a 504, honouring
    /// Retry-After and sending the same Idempotency-Key each time. Zero: no retries and no keys, as the reference
    /// client. The chaos run sets it.</summary>
    public TimeSpan RetryFor { get; init; } = TimeSpan.Zero;

    /// <summary>Part of every idempotency key, so keys never repeat across runs; given again (with the same seed
    /// and day), a run sends the same purchases with the same keys: every one a till's late retry.</summary>
    public string RunId { get; init; } = NewRunId();

    public bool Retries => RetryFor > TimeSpan.Zero;

    /// <summary>Verify every store's answers, not three sampled ones. With --max-item-id 10 a store's top 10 is its
    /// whole row of the matrix, so the whole matrix is compared with MySQL (the chaos run does this).</summary>
    public bool CheckEveryStore { get; init; }

    /// <summary>Each store's POSTs carry its till's credential (for an API with Auth:RequireForCourseApi); off, they
    /// are anonymous, as the course's clients send them.</summary>
    public bool TillCredentials { get; init; }

    /// <summary>What the credentials it sends are issued with: the <c>Auth__*</c> environment variables, as the API
    /// reads them, else this machine's key (LocalSigningKey); none without a signing key.</summary>
    public AuthOptions? Credentials { get; init; } = AuthOptions.ForIssuing() is { SigningKey.Length: > 0 } auth ? auth : null;
    public string? ReportsDirectory { get; init; }
    public bool Verify { get; init; } = true;

    /// <summary>How long the verification waits without progress (see DayVerifier).</summary>
    public TimeSpan VerifyTimeout { get; init; } = TimeSpan.FromSeconds(120);

    /// <summary>Purchases the database may hold for the day's answers to be checked against MySQL's sums over the
    /// whole history (minutes at 50 million purchases, past any timeout at 100 million); past it, the verification
    /// reads what the day touched (<see cref="Verification.RankingAfterTheDay"/>).</summary>
    public long WholeHistoryChecksUpTo { get; init; } = 20_000_000;

    /// <summary>MySQL, for the verification. Without a user of its own it connects as
    /// <c>SUPERMARKET_LOADTEST_DATABASE_USER</c> and <c>_PASSWORD</c> from the environment (the deployment), else as the
    /// verifier's account of this machine (LocalAccounts), which may read the rows and nothing else: no password
    /// is typed on a command line.</summary>
    public string Database
    {
        get
        {
            var connection = new MySqlConnector.MySqlConnectionStringBuilder(field);
            if (connection.UserID.Length > 0 || (FromEnvironment("DATABASE") ?? Local.Value?.DatabaseVerifier) is not { } account)
            {
                return field;
            }

            (connection.UserID, connection.Password) = (account.User, account.Password);
            return connection.ConnectionString;
        }
        init;
    } = LocalSystem.Database;

    /// <summary>RabbitMQ's management API, for queue depths. Without a user of its own it asks as
    /// <c>SUPERMARKET_LOADTEST_MONITOR_USER</c> and <c>_PASSWORD</c> from the environment, else as the monitoring
    /// account of this machine, which may read queue depths and nothing else.</summary>
    public Uri BrokerManagement
    {
        get => field.UserInfo.Length == 0 && (FromEnvironment("MONITOR") ?? Local.Value?.BrokerMonitor) is { } account
            ? new UriBuilder(field) { UserName = Uri.EscapeDataString(account.User), Password = Uri.EscapeDataString(account.Password) }.Uri
            : field;
        init;
    } = LocalSystem.BrokerManagement;

    private static readonly Lazy<LocalAccounts?> Local = new(LocalAccounts.Find);

    private static Account? FromEnvironment(string account) =>
        Environment.GetEnvironmentVariable($"SUPERMARKET_LOADTEST_{account}_USER") is { Length: > 0 } user
            ? new Account(user, Environment.GetEnvironmentVariable($"SUPERMARKET_LOADTEST_{account}_PASSWORD") ?? "")
            : null;
    public string BrokerVirtualHost { get; init; } = "/";

    /// <summary>The processes whose /about the report quotes, at their management ports (never the public one): by
    /// default the API's, the aggregator's and the first writer's (as the AppHost runs them).</summary>
    public IReadOnlyList<Uri> Workers { get; init; } = LocalSystem.Workers;

    /// <summary>The API's management port: the first of <see cref="Workers"/>.</summary>
    public Uri? ApiManagement => Workers.FirstOrDefault();

    public string Name => Label ?? $"{Simulation.Describe()}, {Stores} stores";

    public long TotalPurchases => (long)Stores * Hours * PurchasesPerHour;

    public static string NewRunId() => Convert.ToHexString(System.Security.Cryptography.RandomNumberGenerator.GetBytes(6));

    /// <summary>Parses options, or throws an <see cref="ArgumentException"/> naming what is wrong.</summary>
    public static LoadOptions Parse(IReadOnlyList<string> args)
    {
        var line = new LoadCommandLine();
        var parsed = line.Command.Parse([.. args]);
        return parsed.Errors.Count == 0
            ? line.Read(parsed)
            : throw new ArgumentException(string.Join(" ", parsed.Errors.Select(error => error.Message)));
    }
}

