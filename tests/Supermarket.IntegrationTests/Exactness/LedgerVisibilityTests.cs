extern alias Aggregator;

using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Text.Json;
using Aggregator::Supermarket.SalesAggregator;
using Aggregator::Supermarket.SalesAggregator.Checkpoints;
using Aggregator::Supermarket.SalesAggregator.Counting;
using Aggregator::Supermarket.SalesAggregator.Ledger;
using Aggregator::Supermarket.SalesAggregator.Questions;
using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.Catalog;
using Supermarket.Contracts.Sales;
using Supermarket.Database;
using Supermarket.Database.Ledger;
using Supermarket.Database.Purchases;
using Supermarket.IntegrationTests.Infrastructure;
using Supermarket.SalesCounting;
using Supermarket.Tests.Shared;

namespace Supermarket.IntegrationTests.Exactness;

/// <summary>
/// Whether a reader of the sales ledger can see seq n+1 before n is not proven either way for MariaDB (it builds a
/// read view without a global lock, and drops a committing transaction from its list before releasing its row locks).
/// The aggregator makes it not matter: it never moves past a seq it has not read. Here many writers' transactions take
/// seqs as the writer does (<see cref="SalesLedgerAppend"/>), some rolling back, while several of the aggregator's own
/// feeds follow the real ledger through its real reader, with MariaDB and this test pinned to one core so that
/// preemption lands anywhere; each feed must end with exactly the units committed. In a database of its own, made by
/// the migration step: its entries have no purchases, which the system's own database must never hold. How long it runs:
/// SUPERMARKET_LEDGER_RACE_SECONDS (docs/reliability.md has a 10-minute run); the figures go to the test's output and
/// to ledger-race.json beside the test assembly.
/// </summary>
[Collection(nameof(SystemCollection))]
public sealed class LedgerVisibilityTests(ITestOutputHelper output)
{
    private const int Store = 470, Item = 1, Writers = 6, Readers = 3, RollBackOneIn = 10;
    private const string Database = TestSettings.DatabaseName + "_race";
    private static readonly TimeSpan Race = TimeSpan.FromSeconds(
        int.TryParse(Environment.GetEnvironmentVariable("SUPERMARKET_LEDGER_RACE_SECONDS"), out var seconds) ? seconds : 15);

    [Fact]
    public async Task Feeds_following_the_ledger_while_writers_take_seqs_on_one_core_count_every_committed_entry_once()
    {
        await TestDatabase.CreateMigratedAsync(Database);
        using var meters = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var factory = meters.GetRequiredService<IMeterFactory>();
        using var missing = new MissingEntries(factory);
        var feeds = Enumerable.Range(0, Readers).Select(_ => Feed(factory)).ToList();
        await using var pinned = await OneCore.PinAsync();
        foreach (var feed in feeds)
        {
            await feed.Feed.StartAsync(CancellationToken.None);
        }

        var started = Stopwatch.StartNew();
        var tallies = await Task.WhenAll(Enumerable.Range(0, Writers).Select(writer => WriteUntilAsync(writer, started)));
        var committed = tallies.Sum(t => t.Committed);
        foreach (var feed in feeds)
        {
            var counted = await Eventually.UntilAsync(() => Task.FromResult(feed.Matrix.UnitsSold(Store, Item)), units => units >= committed, TimeSpan.FromSeconds(60));
            await feed.Feed.StopAsync(CancellationToken.None);
            Assert.Equal(committed, counted);
        }

        var figures = new
        {
            seconds = (int)started.Elapsed.TotalSeconds,
            pinnedToCore = 0,
            writers = Writers,
            transactionsCommitted = committed,
            transactionsRolledBack = tallies.Sum(t => t.RolledBack),
            feeds = Readers,
            ledgerReads = feeds.Sum(feed => feed.Ledger.Reads),
            // Each was waited out: every feed counted every committed entry.
            missingEntriesSeen = missing.Seen,
        };
        var json = JsonSerializer.Serialize(figures, new JsonSerializerOptions { WriteIndented = true });
        output.WriteLine(json);
        await File.WriteAllTextAsync(Path.Combine(AppContext.BaseDirectory, "ledger-race.json"), json);
    }

    /// <summary>One writer: transactions of one entry each (one unit), every tenth rolled back after taking its seq.</summary>
    private static async Task<(long Committed, long RolledBack)> WriteUntilAsync(int writer, Stopwatch started)
    {
        var sales = SalesLedgerEntry.Encode([new SaleLine(Store, Item, 1, new DateOnly(2021, 3, 1))]);
        var (committed, rolledBack) = (0L, 0L);
        await using var connection = new MySqlConnection(TestSettings.ConnectionString(Database));
        await connection.OpenAsync();
        for (var i = writer; started.Elapsed < Race; i++)
        {
            await using var transaction = await connection.BeginTransactionAsync();
            await connection.ExecuteAsync(SalesLedgerAppend.Sql, new { purchases = 1, sales }, transaction);
            if (i % RollBackOneIn == 0)
            {
                await transaction.RollbackAsync();
                rolledBack++;
            }
            else
            {
                await transaction.CommitAsync();
                committed++;
            }
        }

        return (committed, rolledBack);
    }

    private RunningFeed Feed(IMeterFactory meters)
    {
        var options = Options.Create(new AggregatorOptions
        {
            CheckpointDirectory = Path.Combine(TestSettings.CheckpointDirectory, $"race-{Guid.NewGuid():N}"),
            LedgerPollInterval = TimeSpan.FromMilliseconds(1),
        });
        var database = Options.Create(new DatabaseOptions
        {
            ConnectionString = TestSettings.DatabaseAt(Database),
            User = TestSettings.Accounts.DatabaseReader.User,
            Password = TestSettings.Accounts.DatabaseReader.Password,
        });
        var ledger = new CountingLedger(new SalesLedgerReader(database, options.Value.LedgerPageSize));
        var matrix = new SalesMatrix(Item, Store, new ItemRange(1, Item));
        var readiness = new MatrixReadiness();
        var feed = new SalesLedgerFeed(matrix, new SalesByDay(Store, new ItemRange(1, Item), options.Value.DaysKept), ledger, new SalesCheckpoint(options, Options.Create(new SalesShardOptions()), NullLogger<SalesCheckpoint>.Instance), readiness,
            new SalesMetrics(meters, readiness), new CountingPace(options, TimeProvider.System), options, TimeProvider.System, NullLogger<SalesLedgerFeed>.Instance);
        return new RunningFeed(feed, matrix, ledger);
    }

    private sealed record RunningFeed(SalesLedgerFeed Feed, SalesMatrix Matrix, CountingLedger Ledger);

    /// <summary>The real reader, counting its reads of the ledger.</summary>
    private sealed class CountingLedger(ISalesLedger ledger) : ISalesLedger
    {
        private long _reads;

        public long Reads => Interlocked.Read(ref _reads);

        public Task<LedgerIdentity> IdentityAsync(CancellationToken cancellationToken) => ledger.IdentityAsync(cancellationToken);

        public Task<LedgerRead> ReadFromAsync(long seq, CancellationToken cancellationToken)
        {
            Interlocked.Increment(ref _reads);
            return ledger.ReadFromAsync(seq, cancellationToken);
        }
    }

    /// <summary>The feeds' supermarket.sales.ledger.missing_entries, from this test's meters only.</summary>
    private sealed class MissingEntries : IDisposable
    {
        private readonly MeterListener _listener = new();
        private long _seen;

        public MissingEntries(IMeterFactory meters)
        {
            _listener.InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Name == "supermarket.sales.ledger.missing_entries" && instrument.Meter.Scope == meters)
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            };
            _listener.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref _seen, value));
            _listener.Start();
        }

        public long Seen => Interlocked.Read(ref _seen);

        public void Dispose() => _listener.Dispose();
    }

    /// <summary>MariaDB (every thread, found through its own @@pid_file) and this process on core 0, given back all
    /// cores when disposed.</summary>
    private sealed class OneCore : IAsyncDisposable
    {
        private readonly int[] _pids;

        private OneCore(int[] pids) => _pids = pids;

        public static async Task<OneCore> PinAsync()
        {
            var pidFile = await TestDatabase.QuerySingleAsync<string>("SELECT @@pid_file");
            int[] pids = [int.Parse((await File.ReadAllTextAsync(pidFile)).Trim(), System.Globalization.CultureInfo.InvariantCulture), Environment.ProcessId];
            await TasksetAsync(pids, "0");
            return new OneCore(pids);
        }

        public async ValueTask DisposeAsync() => await TasksetAsync(_pids, $"0-{Environment.ProcessorCount - 1}");

        /// <summary>taskset --all-tasks fails when a thread it listed exits before it is pinned (a connection ends,
        /// the thread pool shrinks): tried again, bounded, until one pass pins every thread alive.</summary>
        private static async Task TasksetAsync(int[] pids, string cores)
        {
            foreach (var pid in pids)
            {
                var error = "";
                for (var attempt = 0; attempt < 20; attempt++)
                {
                    using var taskset = Process.Start(new ProcessStartInfo("taskset", ["--all-tasks", "--pid", "--cpu-list", cores, pid.ToString(System.Globalization.CultureInfo.InvariantCulture)])
                    {
                        RedirectStandardOutput = true,
                        RedirectStandardError = true,
                    })!;
                    using var patience = new CancellationTokenSource(TimeSpan.FromSeconds(30));
                    await taskset.WaitForExitAsync(patience.Token);
                    if (taskset.ExitCode == 0)
                    {
                        error = "";
                        break;
                    }

                    error = await taskset.StandardError.ReadToEndAsync();
                }

                Assert.True(error.Length == 0, $"taskset could not pin {pid} to {cores}: {error}");
            }
        }
    }
}
