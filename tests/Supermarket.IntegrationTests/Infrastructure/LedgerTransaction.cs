using Dapper;
using MySqlConnector;
using Supermarket.Contracts.Sales;
using Supermarket.Database;
using Supermarket.Database.Ledger;
using Supermarket.Database.Purchases;

namespace Supermarket.IntegrationTests.Infrastructure;

/// <summary>
/// A writer's transaction held open by the test: one purchase and its sales ledger entry inserted as the writer
/// inserts them (<see cref="SalesLedgerAppend"/>), so the entry's seq is taken but not visible until
/// <see cref="CommitAsync"/>. What a database stalled between a transaction's INSERT and its COMMIT looks like to the
/// aggregator and to the other writers. Disposed without a commit, it rolls back.
/// </summary>
public sealed class LedgerTransaction : IAsyncDisposable
{
    private readonly MySqlConnection _connection;
    private readonly MySqlTransaction _transaction;

    private LedgerTransaction(MySqlConnection connection, MySqlTransaction transaction, ulong seq) =>
        (_connection, _transaction, Seq) = (connection, transaction, seq);

    public ulong Seq { get; }

    public static async Task<LedgerTransaction> BeginAsync(int store, int item, int quantity)
    {
        var connection = new MySqlConnection(TestSettings.ConnectionString());
        await connection.OpenAsync();
        var transaction = await connection.BeginTransactionAsync();
        await connection.ExecuteAsync(
            "INSERT INTO purchases (id, store_id, customer_id, purchase_date, received_at, items) VALUES (@id, @store, 1, '2021-03-02', UTC_TIMESTAMP(6), @items)",
            new { id = PurchaseKeys.ToKey(Guid.CreateVersion7()), store, items = $"[[{item},{quantity}]]" }, transaction);
        var seq = await connection.ExecuteScalarAsync<ulong>($"{SalesLedgerAppend.Sql} SELECT LAST_INSERT_ID();",
            new { purchases = 1, sales = SalesLedgerEntry.Encode([new SaleLine(store, item, quantity, new DateOnly(2021, 3, 2))]) }, transaction);
        return new LedgerTransaction(connection, transaction, seq);
    }

    /// <summary>A transaction that took a seq and rolled back.</summary>
    public static async Task RollBackAsync()
    {
        await using var held = await BeginAsync(1, 1, 1);
    }

    public Task CommitAsync() => _transaction.CommitAsync();

    public async ValueTask DisposeAsync()
    {
        await _transaction.DisposeAsync();
        await _connection.DisposeAsync();
    }
}
