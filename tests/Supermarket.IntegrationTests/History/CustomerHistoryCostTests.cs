using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text.Json;
using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.History;
using Supermarket.Contracts.Purchases;
using Supermarket.Database;
using Supermarket.Database.History;
using Supermarket.Database.LoadTest;
using Supermarket.IntegrationTests.Infrastructure;

namespace Supermarket.IntegrationTests.History;

/// <summary>What one customer's page costs on MariaDB when another customer holds purchases in hundreds of months
/// (issue #72): the statements sent follow the asked customer's own months, counted as MySqlConnector runs them.
/// Before, the months that held anyone's purchases were asked, two statements for each span of them, so planted
/// purchases in many months made every customer's page over a long range cost hundreds of statements.</summary>
public sealed class CustomerHistoryCostTests
{
    private const string Database = TestSettings.DatabaseName + "_customer_history_cost";
    private const int Planter = 4_710_001;
    private const int Asked = 4_710_002;

    // The asked customer's: three purchases in two months.
    private static readonly DateOnly[] AskedDates = [new(2021, 1, 5), new(2021, 1, 20), new(2021, 2, 1)];

    [Fact]
    public async Task A_customers_page_costs_statements_for_its_own_months_not_for_the_months_others_planted()
    {
        await StoreAsync();
        var history = new PurchaseHistory(Options.Create(new DatabaseOptions
        {
            ConnectionString = TestSettings.DatabaseAt(Database),
            User = TestSettings.Accounts.DatabaseWriter.User,
            Password = TestSettings.Accounts.DatabaseWriter.Password,
        }));

        // Every date the API takes, then a span inside it, then a span the planter alone holds purchases in.
        foreach (var (from, to, expected) in new (DateOnly?, DateOnly?, int)[]
        {
            (null, null, 3),
            (PurchaseDates.Earliest, PurchaseDates.Latest, 3),
            (new DateOnly(2021, 1, 10), null, 2),
            (new DateOnly(2002, 1, 1), new DateOnly(2019, 12, 31), 0),
        })
        {
            var (page, statements) = await CountStatementsAsync(() =>
                history.OfCustomerAsync(new PurchasesOfCustomer(Asked, from, to, null, 50), TestContext.Current.CancellationToken));
            Assert.Equal(expected, page.Purchases.Length);
            Assert.All(page.Purchases, purchase => Assert.Equal(Asked, purchase.CustomerId));
            // The customer's months, then one range read that holds both of them.
            Assert.True(statements <= 2, $"from {from}, to {to}: {statements} statements for a customer with purchases in two months");
        }
    }

    [Fact]
    public async Task The_customers_months_are_found_without_reading_others_purchases()
    {
        await StoreAsync();
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString(Database));
        var analyzed = await connection.QuerySingleAsync<string>("ANALYZE FORMAT=JSON " + PurchaseHistory.CustomerMonthsSql,
            new { months = PurchaseHistory.MonthsBetween(PurchaseDates.Earliest, PurchaseDates.Latest), subject = Asked });

        // The customer's three entries alone; read as a span of months, it held the planter's ten a month (3,233 rows).
        using var plan = JsonDocument.Parse(analyzed);
        var table = plan.RootElement.GetProperty("query_block").GetProperty("nested_loop")[0].GetProperty("table");
        Assert.Equal("ix_purchases_month_customer", table.GetProperty("key").GetString());
        Assert.True(table.GetProperty("r_rows").GetDouble() <= AskedDates.Length, analyzed);
    }

    // The statements MySqlConnector runs within the call, told apart from any other by the trace they belong to.
    private static async Task<(T Result, int Statements)> CountStatementsAsync<T>(Func<Task<T>> call)
    {
        using var source = new ActivitySource("Supermarket.IntegrationTests.CustomerHistoryCost");
        var executed = new ConcurrentBag<ActivityTraceId>();
        using var listener = new ActivityListener
        {
            ShouldListenTo = candidate => candidate.Name is "MySqlConnector" || candidate == source,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activity =>
            {
                if (activity.Source.Name == "MySqlConnector" && activity.OperationName == "Execute")
                {
                    executed.Add(activity.TraceId);
                }
            },
        };
        ActivitySource.AddActivityListener(listener);
        using var asked = source.StartActivity("asked")!;
        var result = await call();
        return (result, executed.Count(trace => trace == asked.TraceId));
    }

    private static readonly Lazy<Task> Stored = new(StoreOnceAsync);

    private static Task StoreAsync() => Stored.Value;

    private static async Task StoreOnceAsync()
    {
        await TestDatabase.CreateMigratedAsync(Database);
        var received = DateTimeOffset.UtcNow;
        var purchases = new List<PurchaseRecorded>();
        void Add(int customer, DateOnly date) => purchases.Add(new PurchaseRecorded(Guid.CreateVersion7(received),
            1 + (purchases.Count % 4), customer, date, [new PurchaseLine(1000 + (purchases.Count % 100), 1)],
            received.AddMilliseconds(purchases.Count)));

        // The planter's: ten in every month the API takes, and one every 121 months of MariaDB's whole DATE range
        // (the API took those once), so that no two fall in one of the statements a page was read with before.
        var month = PurchaseDates.Earliest;
        for (; month <= DateOnly.FromDateTime(DateTime.UtcNow); month = month.AddMonths(1))
        {
            for (var day = 0; day < 10; day++)
            {
                Add(Planter, month.AddDays(day));
            }
        }

        for (month = new DateOnly(1000, 1, 1); month.Year < 9989; month = month.AddMonths(121))
        {
            Add(Planter, month);
        }

        foreach (var date in AskedDates)
        {
            Add(Asked, date);
        }

        await new HistoryBulkLoad(TestSettings.ConnectionString(Database)).StoreAsync(purchases, TestContext.Current.CancellationToken);
    }
}
