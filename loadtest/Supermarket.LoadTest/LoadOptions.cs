using System.Globalization;
using System.Net;

namespace Supermarket.LoadTest;

public enum LoadModel
{
    /// <summary>The reference client: each store sends its next purchase when the previous one is answered.</summary>
    Closed,

    /// <summary>Purchases arrive at a fixed rate whatever the answers, for latency under a steady load.</summary>
    Open,
}

/// <summary>The load test's options, with the course reference client's defaults.</summary>
public sealed record LoadOptions
{
    public int Stores { get; init; } = 32;
    public int CustomersPerStore { get; init; } = 1000;
    public int MaxItemId { get; init; } = 100_000;
    public int PurchasesPerHour { get; init; } = 300;
    public int ItemsPerPurchase { get; init; } = 5;
    public string Date { get; init; } = "20210101";
    public Uri Url { get; init; } = new("http://127.0.0.1:8080");
    public int Hours { get; init; } = 9;
    public LoadModel Model { get; init; } = LoadModel.Closed;

    /// <summary>Open model: purchases per simulated hour per store, sent as a steady rate per second.</summary>
    public double Rate { get; init; } = 100;

    /// <summary>Open model: the most requests in flight at once; an arrival beyond it is counted as a failure.</summary>
    public int MaxInFlight { get; init; } = 1024;

    public int Seed { get; init; } = 2021;

    /// <summary>How long a store keeps retrying a purchase that got no answer, a 502, a 503 or a 504, honouring
    /// Retry-After and sending the same Idempotency-Key each time. Zero: no retries and no keys, as the reference
    /// client. The chaos run sets it.</summary>
    public TimeSpan RetryFor { get; init; } = TimeSpan.Zero;

    /// <summary>Part of every idempotency key, so keys never repeat across runs.</summary>
    public string RunId { get; init; } = Convert.ToHexString(System.Security.Cryptography.RandomNumberGenerator.GetBytes(6));

    public bool Retries => RetryFor > TimeSpan.Zero;

    /// <summary>Verify every store's answers, not three sampled ones. With --max-item-id 10 a store's top 10 is its
    /// whole row of the matrix, so the whole matrix is compared with MySQL (the chaos run does this).</summary>
    public bool CheckEveryStore { get; init; }
    public string? ReportsDirectory { get; init; }
    public bool Verify { get; init; } = true;
    public TimeSpan VerifyTimeout { get; init; } = TimeSpan.FromSeconds(120);
    public string Database { get; init; } =
        "Server=127.0.0.1;Port=3306;Database=supermarket;User ID=supermarket;Password=supermarket-local;SslMode=None";
    public Uri BrokerManagement { get; init; } = new("http://supermarket:supermarket-local@127.0.0.1:15672/");
    public string BrokerVirtualHost { get; init; } = "/";

    public long TotalPurchases => (long)Stores * Hours * PurchasesPerHour;

    public static readonly string Usage = """
        Supermarket load test: a day of the chain's purchases against the API, then a check that nothing was lost.

          --stores N               stores, ids 1..N (32)
          --customers-per-store N  customer ids per store, [store*1000, store*1000+N) (1000)
          --max-item-id N          item ids 1..N (100000)
          --purchases-per-hour N   purchases each store sends per simulated hour (300)
          --items-per-purchase N   items in each purchase, quantity 1 (5)
          --date yyyyMMdd          the day the purchases are dated (20210101)
          --url URL                the API, on this machine only (http://127.0.0.1:8080)
          --hours N                hours each store is open (9)
          --model closed|open      closed: one purchase in flight per store (the reference client);
                                   open: a steady arrival rate (closed)
          --rate R                 open model: purchases per store per second (100)
          --max-in-flight N        open model: cap on requests in flight (1024)
          --seed N                 random seed (2021)
          --retry-for S            retry a purchase that got no answer, 502, 503 or 504 for up to S seconds,
                                   honouring Retry-After, with an Idempotency-Key (0: never, as the reference client)
          --reports DIR            where the reports go (loadtest/reports/<time>)
          --no-verify              skip the MySQL and GET verification
          --check-every-store      verify every store's answers, not a store from each time zone
          --verify-timeout S       seconds the verification waits without progress (120): while
                                   purchases are still being stored or counted it waits on
          --database CS            MySQL connection string for the verification
          --broker-management URL  RabbitMQ management API, for queue depths
          --broker-vhost NAME      the virtual host of the workers' queues (/)
        """;

    public static LoadOptions Parse(IReadOnlyList<string> args)
    {
        var options = new LoadOptions();
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            string Value() => i + 1 < args.Count ? args[++i] : throw new ArgumentException($"{name} needs a value.");
            int Int(int min) => int.TryParse(Value(), NumberStyles.None, CultureInfo.InvariantCulture, out var v) && v >= min
                ? v : throw new ArgumentException($"{name} takes an integer of at least {min}.");
            options = name switch
            {
                "--stores" => options with { Stores = Int(1) },
                "--customers-per-store" => options with { CustomersPerStore = Int(1) },
                "--max-item-id" => options with { MaxItemId = Int(1) },
                "--purchases-per-hour" => options with { PurchasesPerHour = Int(1) },
                "--items-per-purchase" => options with { ItemsPerPurchase = Int(1) },
                "--date" => options with { Date = ParseDate(Value()) },
                "--url" => options with { Url = LoopbackOnly(Value()) },
                "--hours" => options with { Hours = Int(1) },
                "--model" => options with { Model = Enum.Parse<LoadModel>(Value(), ignoreCase: true) },
                "--rate" => options with { Rate = double.Parse(Value(), CultureInfo.InvariantCulture) },
                "--max-in-flight" => options with { MaxInFlight = Int(1) },
                "--seed" => options with { Seed = Int(0) },
                "--retry-for" => options with { RetryFor = TimeSpan.FromSeconds(Int(0)) },
                "--reports" => options with { ReportsDirectory = Value() },
                "--no-verify" => options with { Verify = false },
                "--check-every-store" => options with { CheckEveryStore = true },
                "--verify-timeout" => options with { VerifyTimeout = TimeSpan.FromSeconds(Int(1)) },
                "--database" => options with { Database = Value() },
                "--broker-management" => options with { BrokerManagement = LoopbackOnly(Value()) },
                "--broker-vhost" => options with { BrokerVirtualHost = Value() },
                _ => throw new ArgumentException($"Unknown option {name}."),
            };
        }

        return options.Rate > 0 ? options : throw new ArgumentException("--rate must be positive.");
    }

    private static string ParseDate(string text) =>
        DateOnly.TryParseExact(text, "yyyyMMdd", CultureInfo.InvariantCulture, DateTimeStyles.None, out _)
            ? text : throw new ArgumentException("--date takes a date as yyyyMMdd.");

    /// <summary>Load is only ever sent to this machine, or to hosts named one by one in
    /// SUPERMARKET_LOADTEST_ALLOW_HOSTS (the Docker deployment's own network sets it to its services).</summary>
    private static Uri LoopbackOnly(string text)
    {
        var uri = new Uri(text, UriKind.Absolute);
        var loopback = uri.IsLoopback || (IPAddress.TryParse(uri.Host.Trim('[', ']'), out var address) && IPAddress.IsLoopback(address));
        var allowed = (Environment.GetEnvironmentVariable("SUPERMARKET_LOADTEST_ALLOW_HOSTS") ?? "")
            .Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Contains(uri.Host, StringComparer.OrdinalIgnoreCase);
        return loopback || allowed ? uri : throw new ArgumentException($"{text} is not on this machine; the load test only targets loopback addresses.");
    }
}
