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
/// dates. Each page is a range read of the index on (store or customer, purchase_date, received_at), whose order is
/// the answer's (migration 0003), and starts after the last purchase of the page before (keyset, never OFFSET).
/// </summary>
public sealed class PurchaseHistory(IOptions<DatabaseOptions> options) : IPurchaseHistory
{
    // No bound given is every date storage holds.
    private static readonly DateOnly Earliest = PurchaseDates.Earliest;
    private static readonly DateOnly Latest = PurchaseDates.Latest;

    private static readonly string StoreFirstPage = PageSql("store_id", afterPosition: false);
    private static readonly string StoreNextPage = PageSql("store_id", afterPosition: true);
    private static readonly string CustomerFirstPage = PageSql("customer_id", afterPosition: false);
    private static readonly string CustomerNextPage = PageSql("customer_id", afterPosition: true);

    private readonly string _connectionString = options.Value.PooledConnectionString();

    public Task<PurchaseHistoryPage> AtStoreAsync(PurchasesAtStore question, CancellationToken cancellationToken) =>
        PageAsync(question.After is null ? StoreFirstPage : StoreNextPage,
            question.StoreId, question.Date, question.Date, question.After, question.PageSize, cancellationToken);

    public Task<PurchaseHistoryPage> OfCustomerAsync(PurchasesOfCustomer question, CancellationToken cancellationToken) =>
        PageAsync(question.After is null ? CustomerFirstPage : CustomerNextPage,
            question.CustomerId, question.From ?? Earliest, question.To ?? Latest, question.After, question.PageSize, cancellationToken);

    private async Task<PurchaseHistoryPage> PageAsync(string sql, int subject, DateOnly from, DateOnly to,
        HistoryPosition? after, int pageSize, CancellationToken cancellationToken)
    {
        pageSize = Math.Clamp(pageSize, 1, PurchaseHistoryPage.MaxPageSize);
        await using var connection = new MySqlConnection(_connectionString);
        // One row beyond the page tells whether there is a next one.
        var rows = (await connection.QueryAsync<StoredRow>(new CommandDefinition(sql, new
        {
            subject,
            from = Day(from),
            to = Day(to),
            date = after is null ? (DateTime?)null : Day(after.Date),
            at = after is null ? null : Moment(after.ReceivedAt),
            id = after is null ? null : PurchaseKeys.ToKey(after.PurchaseId),
            limit = pageSize + 1,
        }, cancellationToken: cancellationToken))).ToList();

        var purchases = rows.Take(pageSize).Select(row => row.ToPurchase()).ToArray();
        var next = rows.Count > pageSize ? purchases[^1] : null;
        return new PurchaseHistoryPage(purchases, next is null ? null : new HistoryPosition(next.Date, next.ReceivedAt, next.PurchaseId));
    }

    private static string PageSql(string subjectColumn, bool afterPosition) => $"""
        SELECT id AS Id, store_id AS StoreId, customer_id AS CustomerId, purchase_date AS PurchaseDate,
               received_at AS ReceivedAt, items AS Items
        FROM purchases
        WHERE {subjectColumn} = @subject AND purchase_date BETWEEN @from AND @to
        {(afterPosition
            ? "AND (purchase_date < @date OR (purchase_date = @date AND (received_at < @at OR (received_at = @at AND id < @id))))"
            : "")}
        ORDER BY purchase_date DESC, received_at DESC, id DESC
        LIMIT @limit
        """;

    private static DateTime Day(DateOnly date) => date.ToDateTime(TimeOnly.MinValue);

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
