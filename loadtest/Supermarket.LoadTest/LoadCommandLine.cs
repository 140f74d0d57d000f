using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;
using System.Net;
using Supermarket.LoadTest.Chaos;
using Supermarket.LoadTest.History;
using Supermarket.LoadTest.Operations;
using Supermarket.LoadTest.Reporting;
using Supermarket.LoadTest.Scenario;
using Supermarket.LoadTest.Thresholds;

namespace Supermarket.LoadTest;

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
    private readonly Option<Simulation> _simulation = new("--simulation")
    {
        Description = "day: the reference client's closed loop, one purchase in flight per store, time zones opening in turn; "
            + "constant: the same purchases at --rate whatever the answers; ramp: the rate rising from --ramp-from to --rate",
        DefaultValueFactory = _ => Defaults.Simulation,
    };

    private readonly Option<double> _rate = Positive("--rate", "constant and ramp: purchases per store per second (the ramp's last rate)", Defaults.Rate);
    private readonly Option<double> _rampFrom = Positive("--ramp-from", "ramp: the first rate, purchases per store per second", Defaults.RampFrom);
    private readonly Option<int> _maxInFlight = AtLeast("--max-in-flight", "constant and ramp: cap on requests in flight; an arrival beyond it counts as dropped", Defaults.MaxInFlight, 1);
    private readonly Option<int> _warmUp = AtLeast("--warm-up", "seconds at the start whose requests are sent and verified but left out of the rate and latencies (and whose questions out of theirs)",
        (int)Defaults.WarmUp.TotalSeconds, 0);
    private readonly Option<int> _prime = AtLeast("--prime", "seconds the load generator first sends the same load to a bare server of its own on loopback, "
        + "so its own start (its JIT, its first connections) is not timed as the system's; the system sees none of it", (int)Defaults.Prime.TotalSeconds, 0);

    private readonly Option<Threshold[]> _thresholds = new("--threshold")
    {
        Description = Threshold.Help,
        AllowMultipleArgumentsPerToken = false,
        CustomParser = result =>
        {
            var thresholds = new List<Threshold>();
            foreach (var token in result.Tokens)
            {
                if (Threshold.TryParse(token.Value, out var threshold, out var error))
                {
                    thresholds.Add(threshold!);
                }
                else
                {
                    result.AddError(error);
                }
            }

            return [.. thresholds];
        },
    };

    private readonly Option<string?> _label = new("--label") { Description = "the run's name in its report and in comparisons (the simulation and the store count)" };
    private readonly Option<bool> _plain = new("--plain") { Description = "a line every other second instead of the live dashboard (the default when the output is not a terminal)" };
    private readonly Option<int> _seed = AtLeast("--seed", "random seed", Defaults.Seed, 0);
    private readonly Option<int> _historyQueries = AtLeast("--history-queries-per-second",
        "purchase history GETs per second while the day runs (a store's day, a customer's purchases, alternately), timed apart from the POSTs",
        Defaults.HistoryQueriesPerSecond, 0);
    private readonly Option<int> _salesQueries = AtLeast("--sales-queries-per-second",
        "sales GETs per second while the day runs (a store's top items, an item's top stores, alternately), timed apart from the POSTs",
        Defaults.SalesQueriesPerSecond, 0);
    private readonly Option<int> _livePages = AtLeast("--live-pages",
        "live pages (the page at /) held open while the day runs, each reading its stream of rankings", 0, 0);
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
    private readonly Option<bool> _tillCredentials = new("--till-credentials")
    {
        Description = "each store's POSTs carry its till's credential, issued with Auth__SigningKey (an API with Auth:RequireForCourseApi)",
    };

    private readonly Option<bool> _checkEveryStore = new("--check-every-store") { Description = "verify every store's answers, not a store from each time zone" };
    private readonly Option<int> _verifyTimeout = AtLeast("--verify-timeout",
        "seconds the verification waits without progress: while purchases are still being stored or counted it waits on",
        (int)Defaults.VerifyTimeout.TotalSeconds, 1);

    private readonly Option<long> _wholeHistoryChecksUpTo = new("--whole-history-checks-up-to")
    {
        Description = "purchases the database may hold for the answers to be checked against MySQL's sums over the whole history; past it, against "
            + "the answers before the day and the day's ledger entries, so that the verification reads what the day touched",
        DefaultValueFactory = _ => Defaults.WholeHistoryChecksUpTo,
    };

    private readonly Option<string> _database = new("--database")
    {
        Description = "MySQL connection string for the verification; without a user, the writer's account of this machine",
        DefaultValueFactory = _ => LocalSystem.Database,
    };

    private readonly Option<Uri> _brokerManagement = Loopback("--broker-management", "RabbitMQ management API, for queue depths", LocalSystem.BrokerManagement);
    private readonly Option<string> _brokerVirtualHost = new("--broker-vhost")
    {
        Description = "the virtual host of the workers' queues",
        DefaultValueFactory = _ => Defaults.BrokerVirtualHost,
    };

    private readonly Option<Uri[]> _workers = new("--workers")
    {
        Description = "the management URLs of the processes whose /about (their settings) the report quotes, comma-separated",
        DefaultValueFactory = _ => [.. Defaults.Workers],
        CustomParser = result => [.. result.Tokens.SelectMany(token => token.Value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            .Select(text => ParseLoopback("--workers", text, result)).OfType<Uri>()],
    };

    private readonly Argument<string[]> _folders = new("folders")
    {
        Description = "report folders (each with a summary.json), the first the baseline",
        Arity = new ArgumentArity(2, 64),
    };

    private readonly Option<string?> _out = new("--out") { Description = "where the table goes (comparison-<time>.md beside the first folder)" };

    public LoadCommandLine()
    {
        var compare = new Command("compare", "print and write a side-by-side table of report folders' figures, each run after the first as a ratio of it; "
            + "runs on databases of different sizes also as charts over the history each held (an .html beside the table)")
        {
            _folders, _out,
        };
        compare.SetAction(parsed => Compare(parsed.GetValue(_folders)!, parsed.GetValue(_out)));
        Command = new RootCommand("Supermarket load test: a day of the chain's purchases against the API, a live dashboard, then a check that nothing was "
            + "lost and a report. Exit code: 0 all well; 1 requests without a 201 or a failed verification; 2 only a threshold breached; "
            + $"{UsageError} a command line it did not understand.")
        {
            _stores, _customersPerStore, _maxItemId, _purchasesPerHour, _itemsPerPurchase, _date, _url, _hours, _simulation, _rate, _rampFrom,
            _maxInFlight, _warmUp, _prime, _thresholds, _label, _plain, _seed, _historyQueries, _salesQueries, _livePages, _retryFor, _runId, _reports, _noVerify, _checkEveryStore,
            _tillCredentials, _verifyTimeout, _wholeHistoryChecksUpTo, _database, _brokerManagement, _brokerVirtualHost, _workers, compare, new ChaosCommandLine().Command,
            new HistoryFillCommandLine().Command, new FaultCommandLine().Command, new DatabaseCommandLine().Command, new BrokerCommandLine().Command,
            new SystemCommandLine().Command, new IdleCommandLine().Command, new MachineCpuCommandLine().Command,
        };
        Command.SetAction((parsed, cancel) => new LoadRun(Read(parsed)).RunAsync());
    }

    /// <summary>The exit code of a command line not understood (BSD's EX_USAGE), apart from a day's 1 and 2.</summary>
    public const int UsageError = 64;

    public RootCommand Command { get; }

    /// <summary>The command line run to its end: its exit code.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        var parsed = new LoadCommandLine().Command.Parse(args);
        var exitCode = await parsed.InvokeAsync();
        // A command line it did not understand (printed with the help) is not a day that lost purchases, which 1 says.
        return parsed.Errors.Count > 0 ? UsageError : exitCode;
    }

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
        Simulation = parsed.GetValue(_simulation),
        Rate = parsed.GetValue(_rate),
        RampFrom = parsed.GetValue(_rampFrom),
        MaxInFlight = parsed.GetValue(_maxInFlight),
        WarmUp = TimeSpan.FromSeconds(parsed.GetValue(_warmUp)),
        Prime = TimeSpan.FromSeconds(parsed.GetValue(_prime)),
        Thresholds = parsed.GetValue(_thresholds) ?? [],
        Label = parsed.GetValue(_label),
        Plain = parsed.GetValue(_plain),
        Seed = parsed.GetValue(_seed),
        HistoryQueriesPerSecond = parsed.GetValue(_historyQueries),
        SalesQueriesPerSecond = parsed.GetValue(_salesQueries),
        LivePages = parsed.GetValue(_livePages),
        RetryFor = TimeSpan.FromSeconds(parsed.GetValue(_retryFor)),
        RunId = parsed.GetValue(_runId)!,
        ReportsDirectory = parsed.GetValue(_reports),
        Verify = !parsed.GetValue(_noVerify),
        TillCredentials = parsed.GetValue(_tillCredentials),
        CheckEveryStore = parsed.GetValue(_checkEveryStore),
        VerifyTimeout = TimeSpan.FromSeconds(parsed.GetValue(_verifyTimeout)),
        WholeHistoryChecksUpTo = parsed.GetValue(_wholeHistoryChecksUpTo),
        Database = parsed.GetValue(_database)!,
        BrokerManagement = parsed.GetValue(_brokerManagement)!,
        BrokerVirtualHost = parsed.GetValue(_brokerVirtualHost)!,
        Workers = parsed.GetValue(_workers)!,
    };

    private static int Compare(string[] folders, string? output)
    {
        var table = RunComparison.Table(folders);
        output ??= Path.Combine(Path.GetDirectoryName(Path.TrimEndingDirectorySeparator(Path.GetFullPath(folders[0])))!,
            string.Create(CultureInfo.InvariantCulture, $"comparison-{DateTime.Now:yyyyMMdd-HHmmss}.md"));
        File.WriteAllText(output, table);
        Console.Write(table);
        Console.WriteLine();
        Console.WriteLine($"Written to {output}");
        if (RunComparison.Curve(folders) is { } curve)
        {
            var page = Path.ChangeExtension(output, ".html");
            File.WriteAllText(page, curve);
            Console.WriteLine($"The runs over stored history: {page}");
        }

        return 0;
    }

    private static Option<double> Positive(string name, string description, double defaultValue) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        Validators = { result => { if (Converts(result, text => double.TryParse(text, CultureInfo.InvariantCulture, out _)) && result.GetValueOrDefault<double>() <= 0) { result.AddError($"{name} must be positive."); } } },
    };

    internal static Option<int> AtLeast(string name, string description, int defaultValue, int min) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        Validators =
        {
            result =>
            {
                if (Converts(result, text => int.TryParse(text, CultureInfo.InvariantCulture, out _)) && result.GetValueOrDefault<int>() < min)
                {
                    result.AddError($"{name} takes an integer of at least {min}.");
                }
            },
        },
    };

    /// <summary>Whether the option's value is of its type: one that is not is the parser's own error, which names the
    /// option; a range check that asked for the number would throw instead of reporting it.</summary>
    private static bool Converts(OptionResult result, Func<string, bool> parses) =>
        result.Tokens.Count == 0 || parses(result.Tokens[^1].Value);

    internal static void RequireDate(OptionResult result)
    {
        if (!DateOnly.TryParseExact(result.GetValueOrDefault<string>(), "yyyyMMdd", CultureInfo.InvariantCulture, DateTimeStyles.None, out _))
        {
            result.AddError("--date takes a date as yyyyMMdd.");
        }
    }

    /// <summary>Load is only ever sent to this machine, or to hosts named one by one in
    /// SUPERMARKET_LOADTEST_ALLOW_HOSTS (the Docker deployment's own network sets it to its services).</summary>
    internal static Option<Uri> Loopback(string name, string description, Uri defaultValue) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => ParseLoopback(name, result.Tokens.Single().Value, result),
    };

    private static Uri? ParseLoopback(string name, string text, ArgumentResult result)
    {
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
    }
}
