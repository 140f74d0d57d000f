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

/// <summary>A customer's purchases, read a month at a time through the index led by the month (migration 0008), in a
/// database of its own: pages that cross months, years and long empty spans come back newest first, each purchase
/// once, and a page is one ordered range read that stops at its end.</summary>
public sealed class CustomerHistoryTests
{
    private const string Database = TestSettings.DatabaseName + "_customer_history";
    private const int Customer = 4_700_001;

    // Months apart, years apart, and one more than PurchaseHistory.MonthsAStatement months from the rest, so that a
    // customer's history takes more than one statement; two purchases share a date.
    private static readonly DateOnly[] Dates =
    [
        new(2001, 5, 31), new(2011, 1, 1), new(2011, 12, 31), new(2012, 1, 1), new(2012, 1, 1), new(2012, 2, 29),
        new(2012, 3, 1), new(2016, 7, 15), new(2016, 8, 1), new(2026, 11, 27),
    ];

    private static readonly Lazy<Task<IReadOnlyList<PurchaseRecorded>>> Stored = new(StoreAsync);

    [Fact]
    public async Task Pages_of_a_customers_purchases_cross_months_and_years_newest_first_each_purchase_once()
    {
        var stored = await Stored.Value;
        var expected = NewestFirst(stored.Where(p => p.CustomerId == Customer)).ToList();

        foreach (var pageSize in new[] { 1, 3, 4, 50 })
        {
            Assert.Equal(expected, await AllPagesAsync(new PurchasesOfCustomer(Customer, null, null, null, pageSize)));
        }

        // Bounds inside months and across a year's end; a span that holds none of the customer's purchases.
        var from = new DateOnly(2011, 12, 31);
        var to = new DateOnly(2012, 2, 29);
        Assert.Equal(expected.Where(id => Between(stored, id, from, to)),
            await AllPagesAsync(new PurchasesOfCustomer(Customer, from, to, null, 2)));
        Assert.Empty(await AllPagesAsync(new PurchasesOfCustomer(Customer, new DateOnly(2013, 1, 1), new DateOnly(2016, 6, 30), null, 2)));
        Assert.Empty(await AllPagesAsync(new PurchasesOfCustomer(Customer + 2, null, null, null, 2)));
    }

    [Fact]
    public async Task A_customers_page_is_read_in_the_month_index_order_and_stops_at_its_end()
    {
        await Stored.Value;
        const int limit = 3;
        await using var connection = new MySqlConnection(TestSettings.OwnerConnectionString(Database));
        var analyzed = await connection.QuerySingleAsync<string>("ANALYZE FORMAT=JSON " + PurchaseHistory.CustomerFirstPage,
            PurchaseHistory.Parameters(Customer, PurchaseDates.Earliest, PurchaseDates.Latest, after: null,
                months: [202611, 201608, 201607, 201203, 201202, 201201, 201112, 201101], limit));

        // A sort would read all of the customer's purchases in those months before the first row of the page.
        Assert.DoesNotContain("filesort", analyzed, StringComparison.Ordinal);
        using var plan = JsonDocument.Parse(analyzed);
        var table = Assert.Single(plan.RootElement.GetProperty("query_block").GetProperty("nested_loop").EnumerateArray()).GetProperty("table");
        Assert.Equal("ix_purchases_month_customer", table.GetProperty("key").GetString());
        Assert.Equal("range", table.GetProperty("access_type").GetString());
        Assert.Equal(limit, table.GetProperty("r_rows").GetDouble());
    }

    private static async Task<IReadOnlyList<PurchaseRecorded>> StoreAsync()
    {
        await TestDatabase.CreateMigratedAsync(Database);
        var received = DateTimeOffset.UtcNow;
        var purchases = new List<PurchaseRecorded>();
        foreach (var (date, index) in Dates.Select((date, index) => (date, index)))
        {
            // The customer's, and two others' in the same month (before and after in the index).
            foreach (var customer in new[] { Customer - 1, Customer, Customer + 1 })
            {
                purchases.Add(new PurchaseRecorded(Guid.CreateVersion7(received), 1 + (index % 4), customer, date,
                    [new PurchaseLine(1000 + index, 1)], received.AddMilliseconds(index)));
            }
        }

        await new HistoryBulkLoad(TestSettings.ConnectionString(Database)).StoreAsync(purchases, TestContext.Current.CancellationToken);
        return purchases;
    }

    private static async Task<List<Guid>> AllPagesAsync(PurchasesOfCustomer question)
    {
        var history = new PurchaseHistory(Options.Create(new DatabaseOptions
        {
            ConnectionString = TestSettings.DatabaseAt(Database),
            User = TestSettings.Accounts.DatabaseWriter.User,
            Password = TestSettings.Accounts.DatabaseWriter.Password,
        }));
        var ids = new List<Guid>();
        for (var pages = 0; pages < 100; pages++)
        {
            var page = await history.OfCustomerAsync(question, TestContext.Current.CancellationToken);
            Assert.All(page.Purchases, purchase => Assert.Equal(question.CustomerId, purchase.CustomerId));
            ids.AddRange(page.Purchases.Select(purchase => purchase.PurchaseId));
            if (page.Next is null)
            {
                return ids;
            }

            question = question with { After = page.Next };
        }

        throw new InvalidOperationException("More than 100 pages");
    }

    private static IEnumerable<Guid> NewestFirst(IEnumerable<PurchaseRecorded> purchases) =>
        purchases.OrderByDescending(p => p.Date).ThenByDescending(p => p.ReceivedAt)
            .Select(p => p.PurchaseId);

    private static bool Between(IEnumerable<PurchaseRecorded> stored, Guid id, DateOnly from, DateOnly to)
    {
        var date = stored.Single(p => p.PurchaseId == id).Date;
        return date >= from && date <= to;
    }
}
