using System.CommandLine;
using System.CommandLine.Parsing;
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
    public Uri Url { get; init; } = new("http://127.0.0.1:8080");
    public int Hours { get; init; } = 9;
    public LoadModel Model { get; init; } = LoadModel.Closed;

    /// <summary>Open model: purchases per store per second, sent as a steady rate.</summary>
    public double Rate { get; init; } = 100;

    /// <summary>Open model: the most requests in flight at once; an arrival beyond it is counted as a failure.</summary>
    public int MaxInFlight { get; init; } = 1024;

    public int Seed { get; init; } = 2021;

    /// <summary>Purchase history questions per second while the day runs (store managers and support reading a
    /// store's day or a customer's purchases, the first page of each), timed apart from the POSTs. Zero: none.</summary>
    public int HistoryQueriesPerSecond { get; init; }

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
    public string? ReportsDirectory { get; init; }
    public bool Verify { get; init; } = true;

    /// <summary>How long the verification waits without progress (see DayVerifier).</summary>
    public TimeSpan VerifyTimeout { get; init; } = TimeSpan.FromSeconds(120);
    public string Database { get; init; } =
        "Server=127.0.0.1;Port=3306;Database=supermarket;User ID=supermarket;Password=supermarket-local;SslMode=None";
    public Uri BrokerManagement { get; init; } = new("http://supermarket_monitor:supermarket-monitor-local@127.0.0.1:15672/");
    public string BrokerVirtualHost { get; init; } = "/";

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

/// <summary>The load test's command line. Each option's default is read from a default <see cref="LoadOptions"/>, so
/// it is written once, there; help (--help) shows them.</summary>
public sealed class LoadCommandLine
{
    private static readonly LoadOptions Defaults = new();

    private readonly Option<int> _stores = AtLeast("--stores", "stores, ids 1..N", Defaults.Stores, 1);
    private readonly Option<int> _customersPerStore = AtLeast("--customers-per-store", "customer ids per store, [store*1000, store*1000+N)", Defaults.CustomersPerStore, 1);
    private readonly Option<int> _maxItemId = AtLeast("--max-item-id", "item ids 1..N", Defaults.MaxItemId, 1);
    private readonly Option<int> _purchasesPerHour = AtLeast("--purchases-per-hour", "purchases each store sends per simulated hour", Defaults.PurchasesPerHour, 1);
    private readonly Option<int> _itemsPerPurchase = AtLeast("--items-per-purchase", "items in each purchase, quantity 1", Defaults.ItemsPerPurchase, 1);
    private readonly Option<string> _date = new("--date")
    {
        Description = "the day the purchases are dated, yyyyMMdd",
        DefaultValueFactory = _ => Defaults.Date,
        Validators = { result => RequireDate(result) },
    };

    private readonly Option<Uri> _url = Loopback("--url", "the API, on this machine only", Defaults.Url);
    private readonly Option<int> _hours = AtLeast("--hours", "hours each store is open", Defaults.Hours, 1);
    private readonly Option<LoadModel> _model = new("--model")
    {
        Description = "closed: one purchase in flight per store (the reference client); open: a steady arrival rate",
        DefaultValueFactory = _ => Defaults.Model,
    };

    private readonly Option<double> _rate = new("--rate")
    {
        Description = "open model: purchases per store per second",
        DefaultValueFactory = _ => Defaults.Rate,
        Validators = { result => { if (result.GetValueOrDefault<double>() <= 0) { result.AddError("--rate must be positive."); } } },
    };

    private readonly Option<int> _maxInFlight = AtLeast("--max-in-flight", "open model: cap on requests in flight", Defaults.MaxInFlight, 1);
    private readonly Option<int> _seed = AtLeast("--seed", "random seed", Defaults.Seed, 0);
    private readonly Option<int> _historyQueries = AtLeast("--history-queries-per-second",
        "purchase history GETs per second while the day runs (a store's day, a customer's purchases, alternately), timed apart from the POSTs",
        Defaults.HistoryQueriesPerSecond, 0);
    private readonly Option<int> _retryFor = AtLeast("--retry-for",
        "retry a purchase that got no answer, 502, 503 or 504 for up to S seconds, honouring Retry-After, with an Idempotency-Key (0: never, as the reference client)",
        (int)Defaults.RetryFor.TotalSeconds, 0);

    private readonly Option<string> _runId = new("--run-id")
    {
        Description = "part of every idempotency key (random); the same run id, seed and day send the same purchases with the same keys again",
        DefaultValueFactory = _ => LoadOptions.NewRunId(),
    };

    private readonly Option<string?> _reports = new("--reports") { Description = "where the reports go (loadtest/reports/<time>)" };
    private readonly Option<bool> _noVerify = new("--no-verify") { Description = "skip the MySQL and GET verification" };
    private readonly Option<bool> _checkEveryStore = new("--check-every-store") { Description = "verify every store's answers, not a store from each time zone" };
    private readonly Option<int> _verifyTimeout = AtLeast("--verify-timeout",
        "seconds the verification waits without progress: while purchases are still being stored or counted it waits on",
        (int)Defaults.VerifyTimeout.TotalSeconds, 1);

    private readonly Option<string> _database = new("--database")
    {
        Description = "MySQL connection string for the verification",
        DefaultValueFactory = _ => Defaults.Database,
    };

    private readonly Option<Uri> _brokerManagement = Loopback("--broker-management", "RabbitMQ management API, for queue depths", Defaults.BrokerManagement);
    private readonly Option<string> _brokerVirtualHost = new("--broker-vhost")
    {
        Description = "the virtual host of the workers' queues",
        DefaultValueFactory = _ => Defaults.BrokerVirtualHost,
    };

    public LoadCommandLine()
    {
        Command = new RootCommand("Supermarket load test: a day of the chain's purchases against the API, then a check that nothing was lost.")
        {
            _stores, _customersPerStore, _maxItemId, _purchasesPerHour, _itemsPerPurchase, _date, _url, _hours, _model, _rate,
            _maxInFlight, _seed, _historyQueries, _retryFor, _runId, _reports, _noVerify, _checkEveryStore, _verifyTimeout, _database, _brokerManagement,
            _brokerVirtualHost,
        };
    }

    public RootCommand Command { get; }

    public LoadOptions Read(ParseResult parsed) => new()
    {
        Stores = parsed.GetValue(_stores),
        CustomersPerStore = parsed.GetValue(_customersPerStore),
        MaxItemId = parsed.GetValue(_maxItemId),
        PurchasesPerHour = parsed.GetValue(_purchasesPerHour),
        ItemsPerPurchase = parsed.GetValue(_itemsPerPurchase),
        Date = parsed.GetValue(_date)!,
        Url = parsed.GetValue(_url)!,
        Hours = parsed.GetValue(_hours),
        Model = parsed.GetValue(_model),
        Rate = parsed.GetValue(_rate),
        MaxInFlight = parsed.GetValue(_maxInFlight),
        Seed = parsed.GetValue(_seed),
        HistoryQueriesPerSecond = parsed.GetValue(_historyQueries),
        RetryFor = TimeSpan.FromSeconds(parsed.GetValue(_retryFor)),
        RunId = parsed.GetValue(_runId)!,
        ReportsDirectory = parsed.GetValue(_reports),
        Verify = !parsed.GetValue(_noVerify),
        CheckEveryStore = parsed.GetValue(_checkEveryStore),
        VerifyTimeout = TimeSpan.FromSeconds(parsed.GetValue(_verifyTimeout)),
        Database = parsed.GetValue(_database)!,
        BrokerManagement = parsed.GetValue(_brokerManagement)!,
        BrokerVirtualHost = parsed.GetValue(_brokerVirtualHost)!,
    };

    private static Option<int> AtLeast(string name, string description, int defaultValue, int min) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        Validators =
        {
            result =>
            {
                if (result.GetValueOrDefault<int>() < min)
                {
                    result.AddError($"{name} takes an integer of at least {min}.");
                }
            },
        },
    };

    private static void RequireDate(OptionResult result)
    {
        if (!DateOnly.TryParseExact(result.GetValueOrDefault<string>(), "yyyyMMdd", CultureInfo.InvariantCulture, DateTimeStyles.None, out _))
        {
            result.AddError("--date takes a date as yyyyMMdd.");
        }
    }

    /// <summary>Load is only ever sent to this machine, or to hosts named one by one in
    /// SUPERMARKET_LOADTEST_ALLOW_HOSTS (the Docker deployment's own network sets it to its services).</summary>
    private static Option<Uri> Loopback(string name, string description, Uri defaultValue) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result =>
        {
            var text = result.Tokens.Single().Value;
            if (!Uri.TryCreate(text, UriKind.Absolute, out var uri))
            {
                result.AddError($"{name} takes an absolute URL.");
                return null;
            }

            var loopback = uri.IsLoopback || (IPAddress.TryParse(uri.Host.Trim('[', ']'), out var address) && IPAddress.IsLoopback(address));
            var allowed = (Environment.GetEnvironmentVariable("SUPERMARKET_LOADTEST_ALLOW_HOSTS") ?? "")
                .Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
                .Contains(uri.Host, StringComparer.OrdinalIgnoreCase);
            if (!loopback && !allowed)
            {
                result.AddError($"{text} is not on this machine; the load test only targets loopback addresses.");
                return null;
            }

            return uri;
        },
    };
}
