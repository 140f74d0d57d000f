using Dapper;
using Microsoft.Extensions.Options;
using MySqlConnector;
using Supermarket.Database;
using Supermarket.SalesAggregator.Questions;

namespace Supermarket.SalesAggregator.Ledger;

/// <summary>
/// Reads the Purchases writer's sales ledger: the aggregator's whole view of the writer's database, and read-only
/// (README, "Guarantees": the contract between the two).
/// </summary>
public sealed class SalesLedgerReader(IOptions<DatabaseOptions> options, IOptions<AggregatorOptions> aggregator) : ISalesLedger
{
    private readonly string _connectionString = options.Value.PooledConnectionString();
    private readonly int _pageSize = aggregator.Value.LedgerPageSize;

    public async Task<LedgerIdentity> IdentityAsync(CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        var (id, gaplessAfter) = await connection.QuerySingleAsync<(byte[], ulong)>(new CommandDefinition(
            "SELECT id, gapless_after FROM ledger_identity", cancellationToken: cancellationToken));
        return new LedgerIdentity(new Guid(id), (long)gaplessAfter);
    }

    public async Task<DateTime?> StoredAtAsync(long seq, CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        return await connection.QuerySingleOrDefaultAsync<DateTime?>(new CommandDefinition(
            "SELECT stored_at FROM sales_ledger WHERE seq = @seq", new { seq }, cancellationToken: cancellationToken));
    }

    public async Task<IReadOnlyList<LedgerEntry>> ReadAfterAsync(long seq, CancellationToken cancellationToken)
    {
        await using var connection = new MySqlConnection(_connectionString);
        var entries = await connection.QueryAsync<LedgerEntry>(new CommandDefinition(
            "SELECT seq, stored_at AS storedAt, purchases, sales FROM sales_ledger WHERE seq > @seq ORDER BY seq LIMIT @page",
            new { seq, page = _pageSize }, cancellationToken: cancellationToken));
        return entries.AsList();
    }
}

/// <summary>One row of the sales ledger: the sales of the purchases one writer transaction stored.</summary>
public sealed record LedgerEntry(ulong Seq, DateTime StoredAt, int Purchases, byte[] Sales);
