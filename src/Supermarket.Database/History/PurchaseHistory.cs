using System.Globalization;
using System.Text.Json;
using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Contracts.History;
using Supermarket.Contracts.Purchases;

namespace Supermarket.Database.History;

/// <summary>Each page is a range read of an index in the answer's order, after the previous page's last purchase
/// (keyset, never OFFSET); a customer's a month at a time, as its index is led by the month (migration 0008).</summary>
public sealed class PurchaseHistory(IOptions<DatabaseOptions> options) : IPurchaseHistory
{
    internal const int MonthsAStatement = 120;

    internal static readonly string StoreFirstPage = PageSql("store_id", afterPosition: false, byMonth: false);
    private static readonly string StoreNextPage = PageSql("store_id", afterPosition: true, byMonth: false);
    internal static readonly string CustomerFirstPage = PageSql("customer_id", afterPosition: false, byMonth: true);
    private static readonly string CustomerNextPage = PageSql("customer_id", afterPosition: true, byMonth: true);

    // Each month by name, a range of (month, customer) each: with BETWEEN MariaDB read every customer's in the span.
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
        var from = Later(question.From ?? PurchaseDates.Earliest, PurchaseDates.Earliest);
        var to = Earlier(question.To ?? PurchaseDates.Latest, PurchaseDates.Latest);
        var sql = question.After is null ? CustomerFirstPage : CustomerNextPage;
        var newest = Month(question.After is null || question.After.Date > to ? to : question.After.Date);
        var oldest = Month(from);

        await using var connection = new MySqlConnection(_connectionString);
        var held = (await connection.QueryAsync<int>(new CommandDefinition(CustomerMonthsSql,
                new { months = MonthsBetween(oldest, newest), subject = question.CustomerId }, cancellationToken: cancellationToken)))
            .OrderDescending().ToList();
        var rows = new List<StoredRow>();
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

    // Days as DATE text, as the column holds them: a DATETIME made MariaDB sort a store's whole day for each page.
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

    private static PurchaseHistoryPage Page(IReadOnlyList<StoredRow> rows, int pageSize)
    {
        var purchases = rows.Take(pageSize).Select(row => row.ToPurchase()).ToArray();
        var next = rows.Count > pageSize ? purchases[^1] : null;
        return new PurchaseHistoryPage(purchases, next is null ? null : new HistoryPosition(next.Date, next.ReceivedAt, next.PurchaseId));
    }

    // The month first, as in the index, so a page stops at its limit unsorted. A store's day by equality: with a range
    // MariaDB may read the store's later days first, backwards, to reach it.
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

    // Every microsecond: a position rounded to the second would skip the purchases of its last second.
    private static string Moment(DateTimeOffset at) => at.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss.ffffff", CultureInfo.InvariantCulture);

    private sealed record StoredRow(byte[] Id, int StoreId, int CustomerId, DateTime PurchaseDate, DateTime ReceivedAt, string Items)
    {
        public StoredPurchase ToPurchase() => new(
            PurchaseKeys.FromKey(Id), StoreId, CustomerId, DateOnly.FromDateTime(PurchaseDate),
            new DateTimeOffset(DateTime.SpecifyKind(ReceivedAt, DateTimeKind.Utc)),
            [.. JsonSerializer.Deserialize<int[][]>(Items)!.Select(line => new PurchaseLine(line[0], line[1]))]);
    }
}
