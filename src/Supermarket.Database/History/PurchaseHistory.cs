using System.Globalization;
using System.Text.Json;
using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.History;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Database.History;

/// <summary>
/// Reads stored purchases a page at a time, newest first: one store's day, or one customer's purchases between two
/// dates. Each page is a range read of an index whose order is the answer's, and starts after the last purchase of the
/// page before (keyset, never OFFSET). A store's day reads the index on (store_id, purchase_date, received_at)
/// (migration 0003); a customer's purchases the index on (purchase_month, customer_id, purchase_date, received_at)
/// (migration 0008), one short range for each month that holds the customer's purchases, newest month first.
/// </summary>
public sealed class PurchaseHistory(IOptions<DatabaseOptions> options) : IPurchaseHistory
{
    // A customer's page asks at most this many of the customer's months in one statement: a range each, so a
    // statement stays short however many months the customer holds purchases in (a year is 12).
    internal const int MonthsAStatement = 120;

    internal static readonly string StoreFirstPage = PageSql("store_id", afterPosition: false, byMonth: false);
    private static readonly string StoreNextPage = PageSql("store_id", afterPosition: true, byMonth: false);
    internal static readonly string CustomerFirstPage = PageSql("customer_id", afterPosition: false, byMonth: true);
    private static readonly string CustomerNextPage = PageSql("customer_id", afterPosition: true, byMonth: true);

    // The months of a span that hold the customer's purchases. Each month asked by name: a range of (month, customer)
    // each, so MariaDB reads the customer's entries alone (with BETWEEN it read every customer's in the span). The span
    // is at most the months of PurchaseDates, about 300 (CustomerHistoryCostTests).
    internal const string CustomerMonthsSql = """
        SELECT DISTINCT purchase_month FROM purchases
        WHERE purchase_month IN @months AND customer_id = @subject
        """;

    private readonly string _connectionString = options.Value.PooledConnectionString();

    public async Task<PurchaseHistoryPage> AtStoreAsync(PurchasesAtStore question, CancellationToken cancellationToken)
    {
        var pageSize = Math.Clamp(question.PageSize, 1, PurchaseHistoryPage.MaxPageSize);
        await using var connection = new MySqlConnection(_connectionString);
        var rows = await RowsAsync(connection, question.After is null ? StoreFirstPage : StoreNextPage,
            question.StoreId, question.Date, question.Date, question.After, months: null, pageSize + 1, cancellationToken);
        return Page(rows, pageSize);
    }

    public async Task<PurchaseHistoryPage> OfCustomerAsync(PurchasesOfCustomer question, CancellationToken cancellationToken)
    {
        var pageSize = Math.Clamp(question.PageSize, 1, PurchaseHistoryPage.MaxPageSize);
        // No bound given is every date the API takes, and no bound reaches past them (the API refuses one that does).
        var from = Later(question.From ?? PurchaseDates.Earliest, PurchaseDates.Earliest);
        var to = Earlier(question.To ?? PurchaseDates.Latest, PurchaseDates.Latest);
        var sql = question.After is null ? CustomerFirstPage : CustomerNextPage;
        // A next page starts in the month its position is in.
        var newest = Month(question.After is null || question.After.Date > to ? to : question.After.Date);
        var oldest = Month(from);

        await using var connection = new MySqlConnection(_connectionString);
        // The customer's own months, newest first: the statements of a page follow what the customer holds, whatever
        // months others hold purchases in.
        var held = (await connection.QueryAsync<int>(new CommandDefinition(CustomerMonthsSql,
                new { months = MonthsBetween(oldest, newest), subject = question.CustomerId }, cancellationToken: cancellationToken)))
            .OrderDescending().ToList();
        var rows = new List<StoredRow>();
        // Months a statement at a time: one statement covers a customer's whole history unless it holds purchases in
        // more than MonthsAStatement months.
        foreach (var months in held.Chunk(MonthsAStatement))
        {
            rows.AddRange(await RowsAsync(connection, sql, question.CustomerId, from, to, question.After, months,
                pageSize + 1 - rows.Count, cancellationToken));
            if (rows.Count > pageSize)
            {
                break;
            }
        }

        return Page(rows, pageSize);
    }

    private static async Task<IReadOnlyList<StoredRow>> RowsAsync(MySqlConnection connection, string sql, int subject,
        DateOnly from, DateOnly to, HistoryPosition? after, IReadOnlyList<int>? months, int limit, CancellationToken cancellationToken) =>
        [.. await connection.QueryAsync<StoredRow>(new CommandDefinition(sql, Parameters(subject, from, to, after, months, limit),
            cancellationToken: cancellationToken))];

    /// <summary>A page's parameters, as its statement is sent (and as the plan tests send it). Days go as DATE text,
    /// as the column holds them: a DATETIME compared with it made MariaDB read a store's day by equality and sort all
    /// of it for each page (StoreDayHistoryTests).</summary>
    internal static object Parameters(int subject, DateOnly from, DateOnly to, HistoryPosition? after, IReadOnlyList<int>? months, int limit) => new
    {
        subject,
        months,
        from = Day(from),
        to = Day(to),
        date = after is null ? null : Day(after.Date),
        at = after is null ? null : Moment(after.ReceivedAt),
        id = after is null ? null : PurchaseKeys.ToKey(after.PurchaseId),
        limit,
    };

    // One row beyond the page tells whether there is a next one.
    private static PurchaseHistoryPage Page(IReadOnlyList<StoredRow> rows, int pageSize)
    {
        var purchases = rows.Take(pageSize).Select(row => row.ToPurchase()).ToArray();
        var next = rows.Count > pageSize ? purchases[^1] : null;
        return new PurchaseHistoryPage(purchases, next is null ? null : new HistoryPosition(next.Date, next.ReceivedAt, next.PurchaseId));
    }

    // By month, the months come first in the index and in the order: the page is then read in the index's order,
    // newest first, and stops at its limit (no sort of the customer's purchases). A store's page is one day, asked by
    // equality: with a range MariaDB may read the store's later days first, backwards, to reach it.
    private static string PageSql(string subjectColumn, bool afterPosition, bool byMonth) => $"""
        SELECT id AS Id, store_id AS StoreId, customer_id AS CustomerId, purchase_date AS PurchaseDate,
               received_at AS ReceivedAt, items AS Items
        FROM purchases
        WHERE {(byMonth ? "purchase_month IN @months AND " : "")}{subjectColumn} = @subject AND {(byMonth ? "purchase_date BETWEEN @from AND @to" : "purchase_date = @from")}
        {(afterPosition
            ? "AND (purchase_date < @date OR (purchase_date = @date AND (received_at < @at OR (received_at = @at AND id < @id))))"
            : "")}
        ORDER BY {(byMonth ? "purchase_month DESC, " : "")}purchase_date DESC, received_at DESC, id DESC
        LIMIT @limit
        """;

    // A month as its first day, and as the index holds it (EXTRACT(YEAR_MONTH ...): 202611).
    private static DateOnly Month(DateOnly date) => new(date.Year, date.Month, 1);

    private static int YearMonth(DateOnly month) => (month.Year * 100) + month.Month;

    private static DateOnly Later(DateOnly a, DateOnly b) => a > b ? a : b;

    private static DateOnly Earlier(DateOnly a, DateOnly b) => a < b ? a : b;

    internal static List<int> MonthsBetween(DateOnly oldest, DateOnly newest)
    {
        var months = new List<int>();
        for (var month = oldest; month <= newest; month = month.AddMonths(1))
        {
            months.Add(YearMonth(month));
        }

        return months;
    }

    private static string Day(DateOnly date) => date.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    // As text with every microsecond DATETIME(6) keeps: a position rounded to the second would skip the purchases of
    // its last second.
    private static string Moment(DateTimeOffset at) => at.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss.ffffff", CultureInfo.InvariantCulture);

    private sealed record StoredRow(byte[] Id, int StoreId, int CustomerId, DateTime PurchaseDate, DateTime ReceivedAt, string Items)
    {
        public StoredPurchase ToPurchase() => new(
            PurchaseKeys.FromKey(Id), StoreId, CustomerId, DateOnly.FromDateTime(PurchaseDate),
            new DateTimeOffset(DateTime.SpecifyKind(ReceivedAt, DateTimeKind.Utc)),
            // The lines as the writer stored them: [[item, quantity], ...] (PurchaseRows.Items).
            [.. JsonSerializer.Deserialize<int[][]>(Items)!.Select(line => new PurchaseLine(line[0], line[1]))]);
    }
}
