using System.CommandLine;
using System.Globalization;
using Supermarket.Faults;

namespace Supermarket.LoadTest.Chaos;

/// <summary>The <c>chaos</c> command. Each option's default is read from a default <see cref="ChaosOptions"/>, so it is
/// written once, there; help (chaos --help) shows them. ./run.sh chaos brings the system up first.</summary>
public sealed class ChaosCommandLine
{
    private static readonly ChaosOptions Defaults = new();

    private readonly Option<int> _stores = Positive("--stores", "stores, ids 1..N", Defaults.Stores);
    private readonly Option<int> _purchasesPerHour = Positive("--purchases-per-hour", "purchases each store sends per simulated hour", Defaults.PurchasesPerHour);
    private readonly Option<int> _faultAfter = Positive("--fault-after", "seconds of load before the fault (from the day's first purchases)", (int)Defaults.FaultAfter.TotalSeconds);
    private readonly Option<int> _faultFor = Positive("--fault-for", "seconds the part stays down (local processes)", (int)Defaults.FaultFor.TotalSeconds);
    private readonly Option<int> _databaseOutage = Positive("--database-outage", "seconds MariaDB stays down in db-outage", (int)Defaults.DatabaseOutage.TotalSeconds);
    private readonly Option<int> _retryFor = Positive("--retry-for", "seconds a store retries a purchase (db-outage adds its outage)", (int)Defaults.RetryFor.TotalSeconds);
    private readonly Option<int> _recoveryLimit = Positive("--recovery-limit", "seconds after the repair within which the part must work again", (int)Defaults.RecoveryLimit.TotalSeconds);

    private readonly Option<string[]> _scenarios = new("--scenarios")
    {
        Description = "scenarios, space- or comma-separated (default: every one of the deployment and topology): "
            + string.Join("; ", ChaosScenario.All.Select(s => $"{s.Name}: {s.Description}")),
        AllowMultipleArgumentsPerToken = true,
        CustomParser = result => [.. result.Tokens.SelectMany(token => token.Value.Split([' ', ','], StringSplitOptions.RemoveEmptyEntries))],
    };

    private readonly Option<bool> _inContainers = new("--in-containers") { Description = "against docker/compose.yaml's deployment (scripts/containers.sh)" };
    private readonly Option<int> _brokerNodes = Positive("--broker-nodes", "RabbitMQ nodes running (3: the cluster's scenarios)", Defaults.BrokerNodes);
    private readonly Option<int> _apiReplicas = Positive("--api-replicas", "API replicas running behind nginx (the api scenario needs 2)", Defaults.ApiReplicas);
    private readonly Option<int> _aggregatorShards = Positive("--aggregator-shards", "sales shards running (the aggregator scenario stops the first)", Defaults.AggregatorShards);
    private readonly Option<int> _aggregatorReplicas = Positive("--aggregator-replicas", "aggregators of each shard (the shard-replica and replica-rebuild scenarios need 2)", Defaults.AggregatorReplicas);
    private readonly Option<Uri> _url = LoadCommandLine.Loopback("--url", "the API the local days target, on this machine only", Defaults.Url);
    private readonly Option<string?> _out = new("--out") { Description = "where the reports, logs and table.md go (.local/chaos/<time>)" };

    public ChaosCommandLine()
    {
        Command = new Command("chaos", "days of load with a fault injected into each (Chaos/LocalFaults.cs, ContainerFaults.cs), verified: one table row per scenario; "
            + "exit code 1 on any loss, duplicate, mismatch, sales answer gone back, purchase given up or part not recovered, "
            + "and on any sales question unanswered in a scenario that promises every answer (replica-rebuild)")
        {
            _stores, _purchasesPerHour, _faultAfter, _faultFor, _databaseOutage, _retryFor, _recoveryLimit, _scenarios, _inContainers,
            _brokerNodes, _apiReplicas, _aggregatorShards, _aggregatorReplicas, _url, _out,
        };
        Command.SetAction((parsed, cancel) => RunAsync(Read(parsed), cancel));
    }

    public Command Command { get; }

    public ChaosOptions Read(ParseResult parsed) => new()
    {
        Stores = parsed.GetValue(_stores),
        PurchasesPerHour = parsed.GetValue(_purchasesPerHour),
        FaultAfter = TimeSpan.FromSeconds(parsed.GetValue(_faultAfter)),
        FaultFor = TimeSpan.FromSeconds(parsed.GetValue(_faultFor)),
        DatabaseOutage = TimeSpan.FromSeconds(parsed.GetValue(_databaseOutage)),
        RetryFor = TimeSpan.FromSeconds(parsed.GetValue(_retryFor)),
        RecoveryLimit = TimeSpan.FromSeconds(parsed.GetValue(_recoveryLimit)),
        Scenarios = parsed.GetValue(_scenarios) ?? [],
        InContainers = parsed.GetValue(_inContainers),
        BrokerNodes = parsed.GetValue(_brokerNodes),
        ApiReplicas = parsed.GetValue(_apiReplicas),
        AggregatorShards = parsed.GetValue(_aggregatorShards),
        AggregatorReplicas = parsed.GetValue(_aggregatorReplicas),
        Url = parsed.GetValue(_url)!,
        Output = parsed.GetValue(_out),
    };

    private static async Task<int> RunAsync(ChaosOptions options, CancellationToken cancellationToken)
    {
        var repository = Repository.Root() ?? throw new InvalidOperationException("the chaos run starts from a clone (no Supermarket.sln above it)");
        var output = options.Output ?? Path.Combine(repository, ".local", "chaos", DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(output);
        await using var faultsLog = TextWriter.Synchronized(new StreamWriter(Path.Combine(output, "faults.log"), append: true) { AutoFlush = true });
        IFaults faults = options.InContainers
            ? new ContainerFaults(repository, faultsLog)
            : LocalFaultsOf(repository, options.Url, faultsLog);
        int exitCode;
        string table;
        try
        {
            // Watched locally, where the course's API is open; the containers' needs an analyst's credential.
            using var api = new HttpClient { BaseAddress = options.Url, Timeout = TimeSpan.FromSeconds(10) };
            var answers = options.InContainers ? null : new ApiSalesAnswers(api);
            (exitCode, table) = await new ChaosRun(options, faults, new LoadTestDays(options, repository, output), Console.Out, answers).RunAsync(cancellationToken);
        }
        catch (ArgumentException invalid)
        {
            await Console.Error.WriteLineAsync($"error: {invalid.Message}");
            return 2;
        }

        await File.WriteAllTextAsync(Path.Combine(output, "table.md"), table, cancellationToken);
        Console.WriteLine();
        Console.Write(table);
        Console.WriteLine();
        Console.WriteLine($"Logs and reports: {output}");
        return exitCode;
    }

    /// <summary>The AppHost of this checkout, which ./run.sh chaos started, through the Aspire CLI.</summary>
    private static LocalFaults LocalFaultsOf(string repository, Uri api, TextWriter log)
    {
        var appHost = new AspireCli(repository);
        var faults = new SystemFaults(appHost);
        var folder = Path.Combine(Security.LocalState.Directory ?? Path.Combine(repository, ".local"), PreviousWriter.StateFolder);
        return new LocalFaults(faults, new PreviousWriter(faults, repository, folder, log), api, log, appHost);
    }

    private static Option<int> Positive(string name, string description, int defaultValue) =>
        LoadCommandLine.AtLeast(name, description, defaultValue, min: 1);
}
